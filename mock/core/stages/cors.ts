/** Stage: answer CORS preflights for the configured origins (browsers send them without a key). */
import type { Stage } from '../context';
import { corsHeaders } from '../cors-headers';

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export const preflight: Stage = function preflight(ctx, deps) {
  const { method, headers } = ctx.req;
  const origin = one(headers.origin);
  if (method !== 'OPTIONS' || !origin || !headers['access-control-request-method']) return { next: ctx };
  const cors = corsHeaders(deps.config, origin);
  if (!cors['Access-Control-Allow-Origin']) return { next: ctx };
  return {
    reply: {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': String(
          one(headers['access-control-request-headers']) ?? 'Authorization, Content-Type, Prefer',
        ),
        'Access-Control-Max-Age': '600',
      },
    },
    ctx,
  };
};
