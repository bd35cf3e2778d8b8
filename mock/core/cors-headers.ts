/** The CORS headers of an answer: the preflight stage and the respond step both set them (stages never import each other). */
import type { MockConfig } from './settings';

const EXPOSED =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Deprecation, Sunset, Link, WWW-Authenticate';

/** Pure: the CORS headers for a request from `origin`, or none when it is not allowed. */
export function corsHeaders(config: MockConfig, origin: string | undefined): Record<string, string> {
  if (!origin || config.corsOrigins.length === 0) return {};
  const any = config.corsOrigins.includes('*');
  if (!any && !config.corsOrigins.includes(origin)) return {};
  return {
    'Access-Control-Allow-Origin': any ? '*' : origin,
    'Access-Control-Expose-Headers': EXPOSED,
    ...(any ? {} : { Vary: 'Origin' }),
  };
}
