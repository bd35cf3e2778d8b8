/**
 * The runner's only way to the target: builds the request, paces it per identity (§8), sends it,
 * records a masked exchange for the check stage and the report.
 */
import type { LoadedSpec } from '../../spec/load';
import { maskAuthorization, maskSecrets } from '../mask';
import type { Exchange, RecordedResponse } from '../types';
import { sendHttp } from './http';
import { decideWait, INITIAL_PACE, noteSent, observeResponse, type PaceState } from './pacer';

/** `key`/`quota`: bearer with that key; `none`: no header; `raw`: this exact Authorization value. */
export type Auth = { use: 'key' } | { use: 'quota' } | { use: 'none' } | { use: 'raw'; value: string };

export interface Outgoing {
  method: string;
  /** Path under the target (`/categories`), or `url` for an absolute address. */
  path?: string;
  url?: string;
  auth: Auth;
  headers?: Record<string, string>;
  body?: string;
  expects429?: boolean;
  outsideContract?: boolean;
}

export type SendResult =
  | { kind: 'response'; exchange: Exchange; response: RecordedResponse }
  | { kind: 'error'; exchange: Exchange }
  | { kind: 'skipped'; reason: string; exchange?: Exchange };

export interface ClientOptions {
  target: string;
  key: string;
  quotaKey?: string;
  spec: LoadedSpec;
  timeoutMs: number;
  maxWaitMs: number;
  reserve: number;
  onWait?: (ms: number, why: string) => void;
}

const EXCERPT = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Client {
  send(out: Outgoing): Promise<SendResult>;
  readonly exchanges: Exchange[];
  readonly target: string;
}

/** Build a client; every exchange it makes is kept in `exchanges`. */
export function createClient(options: ClientOptions): Client {
  const pace = new Map<string, PaceState>();
  const exchanges: Exchange[] = [];
  const secrets = [options.key, options.quotaKey ?? ''].filter((s) => s.length > 0);
  const basePath = new URL(options.target).pathname.replace(/\/+$/, '');

  return {
    exchanges,
    target: options.target,
    async send(out: Outgoing): Promise<SendResult> {
      const identity = out.auth.use === 'key' || out.auth.use === 'quota' ? out.auth.use : 'anonymous';
      // A quota burst (expects429) is deliberate and not paced; everything else is.
      const { waitMs, why } = out.expects429
        ? { waitMs: 0, why: '' }
        : decideWait(pace.get(identity) ?? INITIAL_PACE, Date.now(), options.reserve);
      if (waitMs > options.maxWaitMs)
        return { kind: 'skipped', reason: `rate-limited: ${why}; waiting ${waitMs} ms exceeds --max-wait` };
      if (waitMs > 0) {
        options.onWait?.(waitMs, why);
        await sleep(waitMs);
      }
      pace.set(identity, noteSent(pace.get(identity) ?? INITIAL_PACE));
      const url = out.url ?? `${options.target.replace(/\/+$/, '')}${out.path ?? ''}`;
      const headers = { ...out.headers, ...authHeader(out.auth, options) };
      const result = await sendHttp({ method: out.method, url, headers, body: out.body }, options.timeoutMs);
      const exchange: Exchange = {
        request: {
          method: out.method,
          url,
          headers: maskHeaders(headers),
          body: out.body === undefined ? undefined : maskSecrets(out.body, secrets),
        },
        operationId: matchOperationId(options.spec, out.method, new URL(url).pathname, basePath),
        receivedAt: Date.now(),
        expects429: out.expects429,
        outsideContract: out.outsideContract,
      };
      exchanges.push(exchange);
      if (!result.ok) {
        exchange.error = result.error;
        return { kind: 'error', exchange };
      }
      const response: RecordedResponse = {
        status: result.status,
        headers: result.headers,
        body: maskSecrets(result.text.slice(0, EXCERPT), secrets),
        json: parseJson(result.text),
      };
      exchange.response = response;
      const state = pace.get(identity) ?? INITIAL_PACE;
      const expects429 = out.expects429 === true;
      pace.set(identity, observeResponse(state, result.status, result.headers, Date.now(), expects429));
      if (result.status === 429 && !expects429)
        return { kind: 'skipped', reason: 'rate-limited: unexpected 429 (Retry-After honoured)', exchange };
      return { kind: 'response', exchange, response };
    },
  };
}

function authHeader(auth: Auth, options: ClientOptions): Record<string, string> {
  if (auth.use === 'key') return { Authorization: `Bearer ${options.key}` };
  if (auth.use === 'quota') return { Authorization: `Bearer ${options.quotaKey ?? ''}` };
  if (auth.use === 'raw') return { Authorization: auth.value };
  return {};
}

function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = name.toLowerCase() === 'authorization' ? maskAuthorization(value) : value;
  return out;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The documented operation a request addresses, by method and path under the base path. */
export function matchOperationId(
  spec: LoadedSpec,
  method: string,
  pathname: string,
  basePath: string,
): string | undefined {
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const rest = pathname.slice(basePath.length);
  const op = spec.operations.find((o) => o.method === method.toLowerCase() && o.pathPattern.test(rest));
  return op?.operationId;
}
