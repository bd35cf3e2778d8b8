/**
 * Who may call the mock's own routes outside /v1, and when they are answered.
 *
 * - Operational routes (the front door, health, the API reference and its assets, the spec download, the inspector) are
 *   answered before the rate limit: never counted, never refused by a quota or a ban.
 * - Admin routes (`/_mock/state`, `/_mock/reset`) and the inspector never send CORS headers, so no other site
 *   can read them; a preflight for them is refused. `POST /_mock/reset` needs the admin token or, when none is
 *   set, the header `X-Mock-Admin: 1`, which a browser cannot send cross-site without a preflight.
 * - With `--admin-token`, the state, the reset and the inspector's data and stream need the token
 *   (`Authorization: Bearer TOKEN` or `X-Mock-Admin-Token: TOKEN`). Without one, they answer only on a loopback
 *   listener and only to requests addressed to localhost or an IP address (no DNS rebinding); on any other
 *   address they are off (404).
 * - A request that is refused (wrong method, no token, wrong token…) goes on to the rate limit like an API
 *   request: counted, so guessing the token is throttled and banned like guessing a key, and its Error
 *   carries the rate-limit headers. An admin route served (the token, or this machine without one) is never
 *   counted nor refused by a quota or a ban: a local user cannot lock themselves out of the reset.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { apiError, methodNotAllowed, type ErrorReply } from '../core/errors';
import type { CallerCtx, CountedCtx, Ctx, Outcome, Reply, Stage } from '../core/context';
import { ADMIN_ROUTES, adminRoute } from './admin';
import type { NodeDeps as Deps } from './deps';
import { assetRoute, frontDoor, uiRoutes } from './ui/stage';
import { wantsFrontDoor } from '../../spec/pages/pages';

interface Found {
  family: 'open' | 'admin' | 'inspector';
  access: 'open' | 'read' | 'write';
  methods: readonly string[];
  run: (deps: Deps, ctx: Ctx) => Promise<Reply | undefined> | Reply | undefined;
}

const sha = (s: string): Buffer => createHash('sha256').update(s).digest();
const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** Pure: is this bound address a loopback one (a local socket path counts as loopback)? */
export function isLoopback(address: string): boolean {
  if (isIP(address) === 0) return true;
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
}

/** Whether the admin and inspector routes may be offered at all: a loopback listener, or a token is set. */
export function adminReachable(deps: Deps): boolean {
  return deps.config.adminToken !== null || !(deps.ui?.listener.exposed ?? false);
}
export const adminOn = (deps: Deps): boolean => deps.config.admin && adminReachable(deps);
export const inspectorOn = (deps: Deps): boolean =>
  deps.config.inspector && deps.ui !== undefined && adminReachable(deps);

const UI_ROUTES = uiRoutes(inspectorOn);

/** The own routes outside /_mock/ (the document's two addresses): any other path outside it is the API's. */
const OWN_PREFIX = '/_mock/';
const OWN_ELSEWHERE: ReadonlySet<string> = new Set(
  [...ADMIN_ROUTES.keys(), ...UI_ROUTES.keys()].filter((p) => !p.startsWith(OWN_PREFIX)),
);

function find(path: string): Found | undefined {
  // The API's own requests (nearly all of them) are told apart without a table lookup.
  if (!path.startsWith(OWN_PREFIX) && !OWN_ELSEWHERE.has(path)) return undefined;
  const admin = adminRoute(path);
  if (admin)
    return {
      family: admin.access === 'open' ? 'open' : 'admin',
      access: admin.access,
      methods: admin.method === 'GET' ? ['GET', 'HEAD'] : [admin.method],
      run: admin.run,
    };
  const ui = UI_ROUTES.get(path) ?? assetRoute(path);
  if (!ui) return undefined;
  return {
    family: ui.inspector ? 'inspector' : 'open',
    access: ui.access,
    methods: ['GET', 'HEAD'],
    run: ui.run,
  };
}

/** Pure: does the request carry the admin token (either header), compared in constant time? */
export function carriesToken(headers: Ctx['req']['headers'], token: string): boolean {
  const bearer = /^bearer\s+(.+)$/i.exec(one(headers.authorization) ?? '')?.[1]?.trim();
  const own = one(headers['x-mock-admin-token'])?.trim();
  const want = sha(token);
  return [bearer, own].some((given) => given !== undefined && timingSafeEqual(sha(given), want));
}

/** Pure: is the Host header one a DNS-rebinding page cannot produce (localhost, or an IP address)? */
export function localHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0;
}

/** The refusal for a request to a route that exists and is on, or undefined when it may be served. */
function refusal(ctx: Ctx, deps: Deps, found: Found): ErrorReply | undefined {
  const { method, path, headers } = ctx.req;
  if (!found.methods.includes(method)) return methodNotAllowed(method, path, [...found.methods]);
  if (found.family === 'open' || found.access === 'open') return undefined;
  const token = deps.config.adminToken;
  if (token !== null) {
    if (carriesToken(headers, token)) return undefined;
    return apiError(
      'forbidden',
      `${path} needs the admin token (Authorization: Bearer TOKEN or X-Mock-Admin-Token: TOKEN)`,
    );
  }
  const host = one(headers.host);
  if (!localHost(host))
    return apiError(
      'forbidden',
      `${path} answers only requests addressed to localhost or an IP address (Host: ${String(host).slice(0, 100)})`,
    );
  if (found.access === 'write' && one(headers['x-mock-admin']) === undefined)
    return apiError('forbidden', `${method} ${path} needs the header X-Mock-Admin: 1 (or the admin token)`);
  return undefined;
}

function lookup(ctx: Ctx, deps: Deps): Found | undefined {
  const found = find(ctx.req.path);
  if (!found) return undefined;
  if (found.family === 'admin' && !adminOn(deps)) return undefined;
  if (found.family === 'inspector' && !inspectorOn(deps)) return undefined;
  if (found.family === 'open' && found.access === 'open' && !deps.ui && !adminRoute(ctx.req.path))
    return undefined;
  return found;
}

const withCors = (found: Found, reply: Reply): Reply =>
  found.family === 'open' ? reply : { ...reply, cors: false };

const served = async <C extends Ctx>(found: Found, ctx: C, deps: Deps): Promise<Outcome<C>> => {
  const reply = await found.run(deps, ctx);
  return reply ? { reply: withCors(found, reply), ctx } : ctx;
};

/**
 * Before the rate limit: serve the mock's own routes (and the front door) to whoever may call them, without
 * counting. Synchronous for every other path: the API's requests pass without a promise.
 */
export const ownRoutes: Stage<CallerCtx, CallerCtx, Deps> = function ownRoutes(ctx, deps) {
  if (deps.ui && wantsFrontDoor(ctx.req.method, ctx.req.path, ctx.req.headers.accept)) {
    const reply = frontDoor(ctx, deps, inspectorOn(deps));
    if (reply) return { reply, ctx };
  }
  const found = lookup(ctx, deps);
  if (!found || refusal(ctx, deps, found)) return ctx;
  return served(found, ctx, deps);
};

/** After the rate limit (counted, with its headers): the admin routes without a token, and every refusal. */
export const ownRefusals: Stage<CountedCtx, CountedCtx, Deps> = function ownRefusals(ctx, deps) {
  const found = lookup(ctx, deps);
  // A preflight for the spec documents is the CORS stage's to answer.
  if (!found || (found.family === 'open' && ctx.req.method === 'OPTIONS')) return ctx;
  const refused = refusal(ctx, deps, found);
  if (refused) return { reply: withCors(found, refused), ctx };
  return served(found, ctx, deps);
};
