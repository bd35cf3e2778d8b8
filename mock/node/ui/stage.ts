/**
 * Stage: the mock's pages outside /v1: `/_mock/docs` (the API reference), `/openapi.json`, `/openapi.yaml`,
 * `/_mock/inspector` with its data and live events, and their assets under `/_mock/ui/`. Pages are requests
 * like any other (counted, with the rate-limit headers); for any other path this stage is one map lookup and
 * a prefix test. `--no-inspector` removes the inspector, its data and events; the reference and documents stay.
 */
import { methodNotAllowed } from '../../core/errors';
import type { Ctx, Reply, Stage } from '../../core/context';
import type { NodeDeps as Deps } from '../deps';
import { readAsset } from './assets';
import { inspectorEvents } from './events';
import { inspectorData } from './inspector-data';
import { docsPage, inspectorPage } from './pages';
import { tryCurl } from '../try-curl';

const ASSET_PREFIX = '/_mock/ui/';
const HTML = 'text/html; charset=utf-8';
const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

type Route = { inspector?: true; run: (deps: Deps, ctx: Ctx) => Promise<Reply> | Reply };

const bytes = (type: string, raw: Buffer | string, extra: Record<string, string> = NO_STORE): Reply => ({
  status: 200,
  raw: typeof raw === 'string' ? Buffer.from(raw) : raw,
  headers: { ...extra, 'Content-Type': type },
});

const pageOptions = (deps: Deps, ctx: Ctx) => {
  const host = ctx.req.headers.host;
  const origin = typeof host === 'string' && /^[\w.[\]:-]+$/.test(host) ? `http://${host}` : 'http://HOST';
  return {
    inspector: deps.config.inspector,
    title: deps.spec.document.info?.title ?? 'API',
    curl: tryCurl(deps.spec, `${origin}${deps.spec.basePath}`, 'YOUR_KEY'),
  };
};

const documents = (deps: Deps) => {
  if (!deps.ui) throw new Error('the ui stage needs deps.ui');
  return deps.ui.documents;
};

const ROUTES = new Map<string, Route>([
  ['/_mock/docs', { run: (deps, ctx) => bytes(HTML, docsPage(pageOptions(deps, ctx))) }],
  ['/_mock/docs/openapi.json', { run: (deps) => bytes('application/json', documents(deps).docsJson) }],
  ['/openapi.json', { run: (deps) => bytes('application/json', documents(deps).json) }],
  ['/openapi.yaml', { run: (deps) => bytes('application/yaml; charset=utf-8', documents(deps).yaml) }],
  [
    '/_mock/inspector',
    { inspector: true, run: (deps, ctx) => bytes(HTML, inspectorPage(pageOptions(deps, ctx))) },
  ],
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

export const ui: Stage<Deps> = async function ui(ctx: Ctx, deps: Deps) {
  const { path, method } = ctx.req;
  const route = ROUTES.get(path);
  const isAsset = !route && path.startsWith(ASSET_PREFIX);
  if ((!route && !isAsset) || !deps.ui || (route?.inspector && !deps.config.inspector)) return { next: ctx };
  if (method !== 'GET' && method !== 'HEAD') {
    return { reply: methodNotAllowed(method, path, ['GET', 'HEAD']), ctx };
  }
  const reply = route ? await route.run(deps, ctx) : await asset(path);
  return reply ? { reply, ctx } : { next: ctx };
};
