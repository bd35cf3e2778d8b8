/** Stage: answer CORS preflights for the configured origins (browsers send them without a key). */
import type { CountedCtx, Stage } from '../context';
import { corsHeaders } from '../cors-headers';
import type { CompiledSpec } from '../../../spec/compile';

/** What every preflight allows, whatever the document says (the methods a browser's fetch commonly sends). */
const BASE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const allowed = new WeakMap<CompiledSpec, string>();

/** Pure: the preflight's Allow-Methods: the usual ones and every other the document's operations use (QUERY, COPY). */
export function allowMethods(spec: CompiledSpec): string {
  let known = allowed.get(spec);
  if (known === undefined) {
    const extra = spec.operations.map((o) => o.method.toUpperCase()).filter((m) => !BASE_METHODS.includes(m));
    known = [...new Set([...BASE_METHODS, ...extra])].join(', ');
    allowed.set(spec, known);
  }
  return known;
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export const preflight: Stage<CountedCtx> = function preflight(ctx, deps) {
  const { method, headers } = ctx.req;
  const origin = one(headers.origin);
  if (method !== 'OPTIONS' || !origin || !headers['access-control-request-method']) return ctx;
  const cors = corsHeaders(deps.config, origin);
  if (!cors['Access-Control-Allow-Origin']) return ctx;
  return {
    reply: {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': allowMethods(deps.spec),
        'Access-Control-Allow-Headers': String(
          one(headers['access-control-request-headers']) ?? 'Authorization, Content-Type, Prefer',
        ),
        'Access-Control-Max-Age': '600',
      },
    },
    ctx,
  };
};
