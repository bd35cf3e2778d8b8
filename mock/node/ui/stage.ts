/**
 * The mock's pages outside /v1: the front door (`GET /` from a browser), `/_mock/docs` (the API reference), `/openapi.json`, `/openapi.yaml`,
 * `/_mock/inspector` with its data and live events, and their assets under `/_mock/ui/`. Which of them are
 * served, to whom, and before the rate limit, is decided in ../routes.ts. `--no-inspector` removes the
 * inspector, its data and events; the reference and documents stay.
 */
import type { Ctx, Reply } from '../../core/context';
import { matchOperation } from '../../core/stages/route';
import type { NodeDeps as Deps } from '../deps';
import { readAsset } from '../../../spec/pages/assets';
import { inspectorEvents } from './events';
import { inspectorData } from './inspector-data';
import { docsPage, frontDoorPage, inspectorPage } from '../../../spec/pages/pages';
import { tryCurl } from '../try-curl';

const ASSET_PREFIX = '/_mock/ui/';
const HTML = 'text/html; charset=utf-8';
const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

export interface UiRoute {
  /** `inspector`: off with --no-inspector (and on an exposed address without an admin token). */
  inspector: boolean;
  /** `open`: anyone; `read`: the inspector's data (needs the admin token when one is set). */
  access: 'open' | 'read';
  /** undefined: no such asset (the route stage answers 404). */
  run: (deps: Deps, ctx: Ctx) => Promise<Reply | undefined> | Reply;
}

const bytes = (type: string, raw: Buffer | string, extra: Record<string, string> = NO_STORE): Reply => ({
  status: 200,
  raw: typeof raw === 'string' ? Buffer.from(raw) : raw,
  headers: { ...extra, 'Content-Type': type },
});

const documents = (deps: Deps) => {
  if (!deps.ui) throw new Error('the pages need deps.ui');
  return deps.ui.documents;
};

const pageOptions = (deps: Deps, ctx: Ctx, inspector: boolean) => {
  const host = ctx.req.headers.host;
  const origin = typeof host === 'string' && /^[\w.[\]:-]+$/.test(host) ? `http://${host}` : 'http://HOST';
  return {
    inspector,
    title: deps.spec.document.info?.title ?? 'API',
    curl: tryCurl(deps.spec, `${origin}${deps.spec.basePath}`, 'YOUR_KEY'),
  };
};

/** `inspectorShown`: whether the pages link to the inspector (it may be off for this listener). */
export function uiRoutes(inspectorShown: (deps: Deps) => boolean): ReadonlyMap<string, UiRoute> {
  const open = (run: UiRoute['run']): UiRoute => ({ inspector: false, access: 'open', run });
  return new Map<string, UiRoute>([
    ['/_mock/docs', open((deps, ctx) => bytes(HTML, docsPage(pageOptions(deps, ctx, inspectorShown(deps)))))],
    ['/_mock/docs/openapi.json', open((deps) => bytes('application/json', documents(deps).docsJson))],
    ['/openapi.json', open((deps) => bytes('application/json', documents(deps).json))],
    ['/openapi.yaml', open((deps) => bytes('application/yaml; charset=utf-8', documents(deps).yaml))],
    [
      '/_mock/inspector',
      {
        inspector: true,
        access: 'open',
        run: (deps, ctx) => bytes(HTML, inspectorPage(pageOptions(deps, ctx, true))),
      },
    ],
    [
      '/_mock/inspector/data',
      {
        inspector: true,
        access: 'read',
        run: async (deps) => ({ status: 200, body: await inspectorData(deps), headers: NO_STORE }),
      },
    ],
    [
      '/_mock/inspector/events',
      {
        inspector: true,
        access: 'read',
        run: (deps) => {
          if (!deps.ui) throw new Error('the inspector needs deps.ui');
          return inspectorEvents(deps.ui.current, deps.ui.streams);
        },
      },
    ],
  ]);
}

const UI_PATHS = new Set(uiRoutes(() => false).keys());

/** Pure: is `path` one of the pages' own (so the inspector does not list its own traffic)? */
export function isUiPath(path: string): boolean {
  return UI_PATHS.has(path) || path.startsWith(ASSET_PREFIX);
}

/** An asset route for a path under /_mock/ui/, else undefined. */
export function assetRoute(path: string): UiRoute | undefined {
  if (!path.startsWith(ASSET_PREFIX)) return undefined;
  return {
    inspector: false,
    access: 'open',
    run: async () => {
      const found = await readAsset(path.slice(ASSET_PREFIX.length));
      if (!found) return undefined;
      return bytes(found.type, found.body, {
        'Cache-Control': 'public, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  };
}

/** `http://host/v1` from the Host header when it is a plain host[:port], else just the base path. */
function baseUrlOf(host: string | string[] | undefined, basePath: string): string {
  const h = Array.isArray(host) ? host[0] : host;
  return h && h.length <= 255 && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(h)
    ? `http://${h}${basePath}`
    : basePath || '/';
}

/** The front door page, or undefined when the document has an operation at `/` itself (it keeps it). */
export function frontDoor(ctx: Ctx, deps: Deps, inspectorShown: boolean): Reply | undefined {
  if (!('error' in matchOperation(deps.spec, deps.spec.basePath, 'GET', '/'))) return undefined;
  const info = deps.spec.document.info;
  return bytes(
    HTML,
    frontDoorPage({
      ...pageOptions(deps, ctx, inspectorShown),
      version: typeof info?.version === 'string' ? info.version : undefined,
      baseUrl: baseUrlOf(ctx.req.headers.host, deps.spec.basePath),
      basePath: deps.spec.basePath,
    }),
    // Other clients get the JSON 404 at the same URL.
    { ...NO_STORE, Vary: 'Accept' },
  );
}
