/**
 * Stage: the mock's pages outside /v1: the front door (`GET /` from a browser), `/_mock/docs` (the API
 * reference), `/openapi.json`, `/openapi.yaml`,
 * `/_mock/inspector` with its data and live events, and their assets under `/_mock/ui/`. Pages are requests
 * like any other (counted, with the rate-limit headers); for any other path this stage is one map lookup and
 * a prefix test. `--no-inspector` removes the inspector, its data and events; the reference and documents stay.
 */
import { methodNotAllowed } from '../../core/errors';
import type { Ctx, Reply, Stage, StageOutcome } from '../../core/context';
import type { NodeDeps as Deps } from '../deps';
import { readAsset } from './assets';
import { inspectorEvents } from './events';
import { inspectorData } from './inspector-data';
import { matchOperation } from '../../core/stages/route';
import { docsPage, frontDoorPage, inspectorPage } from './pages';

const ASSET_PREFIX = '/_mock/ui/';
const HTML = 'text/html; charset=utf-8';
const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

type Route = { inspector?: true; run: (deps: Deps) => Promise<Reply> | Reply };

const bytes = (type: string, raw: Buffer | string, extra: Record<string, string> = NO_STORE): Reply => ({
  status: 200,
  raw: typeof raw === 'string' ? Buffer.from(raw) : raw,
  headers: { ...extra, 'Content-Type': type },
});

const pageOptions = (deps: Deps) => ({
  inspector: deps.config.inspector,
  title: deps.spec.document.info?.title ?? 'API',
});

const documents = (deps: Deps) => {
  if (!deps.ui) throw new Error('the ui stage needs deps.ui');
  return deps.ui.documents;
};

const ROUTES = new Map<string, Route>([
  ['/_mock/docs', { run: (deps) => bytes(HTML, docsPage(pageOptions(deps))) }],
  ['/_mock/docs/openapi.json', { run: (deps) => bytes('application/json', documents(deps).docsJson) }],
  ['/openapi.json', { run: (deps) => bytes('application/json', documents(deps).json) }],
  ['/openapi.yaml', { run: (deps) => bytes('application/yaml; charset=utf-8', documents(deps).yaml) }],
  ['/_mock/inspector', { inspector: true, run: (deps) => bytes(HTML, inspectorPage(pageOptions(deps))) }],
  [
    '/_mock/inspector/data',
    {
      inspector: true,
      run: async (deps) => ({ status: 200, body: await inspectorData(deps), headers: NO_STORE }),
    },
  ],
  [
    '/_mock/inspector/events',
    { inspector: true, run: (deps) => inspectorEvents(deps.ui?.current ?? (() => deps)) },
  ],
]);

/**
 * Pure: does this request ask for the front door? `GET`/`HEAD /` whose `Accept` names `text/html` itself
 * (browsers do) with a q above 0. A wildcard Accept alone, `application/json` or no Accept: no, the JSON 404 stays.
 */
export function wantsFrontDoor(method: string, path: string, accept: string | string[] | undefined): boolean {
  if (path !== '/' || (method !== 'GET' && method !== 'HEAD') || accept === undefined) return false;
  const text = Array.isArray(accept) ? accept.join(',') : accept;
  if (text.length > 4096) return false;
  return text.split(',').some((part) => {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return range === 'text/html' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** `http://host/v1` from the Host header when it is a plain host[:port], else just the base path. */
function baseUrlOf(host: string | string[] | undefined, basePath: string): string {
  const h = Array.isArray(host) ? host[0] : host;
  return h && h.length <= 255 && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(h)
    ? `http://${h}${basePath}`
    : basePath || '/';
}

function frontDoor(ctx: Ctx, deps: Deps): Reply | undefined {
  // A document that has an operation at `/` itself keeps it.
  if (!('error' in matchOperation(deps.spec, deps.spec.basePath, 'GET', '/'))) return undefined;
  const info = deps.spec.document.info;
  return bytes(
    HTML,
    frontDoorPage({
      ...pageOptions(deps),
      version: typeof info?.version === 'string' ? info.version : undefined,
      baseUrl: baseUrlOf(ctx.req.headers.host, deps.spec.basePath),
      basePath: deps.spec.basePath,
    }),
    // Other clients get the JSON 404 at the same URL.
    { ...NO_STORE, Vary: 'Accept' },
  );
}

/** Pure: is `path` one of the pages' own (so the inspector does not list its own traffic)? */
export function isUiPath(path: string): boolean {
  return ROUTES.has(path) || path.startsWith(ASSET_PREFIX);
}

async function asset(path: string): Promise<Reply | undefined> {
  const found = await readAsset(path.slice(ASSET_PREFIX.length));
  if (!found) return undefined;
  return bytes(found.type, found.body, {
    'Cache-Control': 'public, max-age=3600',
    'X-Content-Type-Options': 'nosniff',
  });
}

/** Synchronous for every other path: the API's requests pass this stage without a promise. */
export const ui: Stage<Deps> = function ui(ctx: Ctx, deps: Deps) {
  const { path, method } = ctx.req;
  if (deps.ui && wantsFrontDoor(method, path, ctx.req.headers.accept)) {
    const reply = frontDoor(ctx, deps);
    if (reply) return { reply, ctx };
  }
  const route = ROUTES.get(path);
  const isAsset = !route && path.startsWith(ASSET_PREFIX);
  if ((!route && !isAsset) || !deps.ui || (route?.inspector && !deps.config.inspector)) return { next: ctx };
  if (method !== 'GET' && method !== 'HEAD') {
    return { reply: methodNotAllowed(method, path, ['GET', 'HEAD']), ctx };
  }
  return serve(ctx, deps, route);
};

async function serve(ctx: Ctx, deps: Deps, route: Route | undefined): Promise<StageOutcome> {
  const reply = route ? await route.run(deps) : await asset(ctx.req.path);
  return reply ? { reply, ctx } : { next: ctx };
}
