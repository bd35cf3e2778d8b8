/**
 * Sends the callbacks the core decided (mock/core/callbacks.ts), bounded (issue 33):
 * - only to hosts `--callback-hosts` allows (`loopback` by default: 127.0.0.0/8, ::1, localhost; names and
 *   addresses are matched as written in the URL, no wildcard), over http or https;
 * - each attempt cut after `timeoutMs`; a network failure, a timeout or a 5xx is retried once after `backoffMs`;
 * - at most `maxPending` sends in flight (more are dropped and recorded as dropped);
 * - every send and its outcome kept in a ring of `keep` entries for `GET /_mock/callbacks` and the inspector, with
 *   every credential masked (the headers and query parameters the send marks secret, and the secret values
 *   wherever they appear, the answer included); a signing secret is never kept at all.
 * - a webhook that asks to be signed is signed here, per attempt, over the exact bytes sent (HMAC-SHA256).
 * Nothing here answers a request: the request that caused the callback was answered already.
 */
import { createHmac } from 'node:crypto';
import type { CallbackSend } from '../core/callbacks';
import type { Logger } from '../core/log';
import type { SignatureFormat } from '../core/settings';
import { maskHeaderValues, maskKnownSecrets, maskUrlSecrets } from '../../spec/mask';
import { maskUrl, maskSecrets } from '../../spec/redact';
import { callbackHostsProblem, targetProblem } from '../../spec/callback-hosts';

export { callbackHostsProblem, targetProblem };

export interface CallbackLimits {
  /** Hosts callbacks may go to: `loopback`, host names, IP addresses (optionally `:port`). */
  hosts: readonly string[];
  timeoutMs: number;
  backoffMs: number;
  maxPending: number;
  keep: number;
}

export const CALLBACK_DEFAULTS: CallbackLimits = {
  hosts: ['loopback'],
  timeoutMs: 5000,
  backoffMs: 250,
  maxPending: 50,
  keep: 100,
};

export interface CallbackAttempt {
  /** The answer's status, or 0 when none came. */
  status: number;
  /** Why there was no answer (timeout, refused connection…). */
  error?: string;
  ms: number;
}

export interface CallbackRecord {
  /** When the send was decided (ms since the epoch). */
  t: number;
  /** `callback` (an operation's `callbacks`) or `webhook` (the document's top-level `webhooks`). */
  kind: 'callback' | 'webhook';
  /** A webhook's cause: `pets created`, `on demand`. */
  event?: string;
  operationId: string;
  name: string;
  method: string;
  /** As sent, credentials in the query masked. */
  url?: string;
  /** As sent (the last attempt's), credentials masked. */
  headers: Record<string, string>;
  body?: unknown;
  /** The signature header and its format, when the body was signed (the secret is never kept). */
  signed?: { header: string; format: SignatureFormat };
  /** Sent without credentials, not signed…: what the record should say. */
  note?: string;
  /** `pending`, `sent` (a 2xx–4xx answer), `failed` (after the retry), `refused` (host or URL), `dropped` (cap). */
  outcome: 'pending' | 'sent' | 'failed' | 'refused' | 'dropped';
  reason?: string;
  attempts: CallbackAttempt[];
  /** The last answer's body, its first 2,000 characters. */
  answer?: string;
}

export interface CallbackSender {
  /** Where the engine puts the callbacks it decided. */
  outbox(sends: CallbackSend[]): void;
  /** Newest first. */
  list(): CallbackRecord[];
  /** Resolves when nothing is in flight (tests, a graceful stop). */
  idle(): Promise<void>;
  /** Stop: sends in flight are cut. */
  close(): void;
}

/** The signature header's value for `body` (exact bytes) under `secret`; `t`: Unix seconds (Stripe's format). */
export function signatureOf(format: SignatureFormat, secret: string, body: string, t: number): string {
  if (format === 'stripe') {
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return `t=${t},v1=${v1}`;
  }
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  return format === 'hex' ? hex : `sha256=${hex}`;
}

const excerpt = (text: string): string => (text.length > 2000 ? `${text.slice(0, 2000)}…` : text);

/** The most of a receiver's answer read (the rest is dropped unread: the target is the request's choice). */
const ANSWER_BYTES = 8 * 1024;

/** Up to `max` bytes of an answer's body as text; the rest is cancelled, never buffered. */
async function readSome(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/** A body as kept in the history: masked, and cut to an excerpt when large (a webhook body may be 1 MiB). */
function keptBody(body: unknown, maskText: (text: string) => string): unknown {
  if (body === undefined) return undefined;
  const text = maskText(typeof body === 'string' ? body : JSON.stringify(body));
  if (text.length > 2000) return excerpt(text);
  try {
    return typeof body === 'string' ? text : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

/** A sender with the given limits; `fetchImpl` is the global fetch unless a test gives another. */
export function createCallbackSender(
  limits: Partial<CallbackLimits> = {},
  log?: Logger,
  now: () => number = Date.now,
): CallbackSender {
  const given = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
  const l: CallbackLimits = { ...CALLBACK_DEFAULTS, ...given };
  const ring: CallbackRecord[] = [];
  let next = 0;
  let pending = 0;
  const waiters: Array<() => void> = [];
  const controllers = new Set<AbortController>();
  let closed = false;

  const keep = (r: CallbackRecord): void => {
    ring[next] = r;
    next = (next + 1) % l.keep;
  };
  const settle = (): void => {
    pending--;
    if (pending === 0) for (const w of waiters.splice(0)) w();
  };

  /** What a send needs that no record may show: the real headers, the exact body, the secret. */
  interface Outgoing {
    url: string;
    headers: Record<string, string>;
    body?: string;
    sign?: CallbackSend['sign'];
    mask: (headers: Record<string, string>) => Record<string, string>;
    maskText: (text: string) => string;
  }

  async function attempt(r: CallbackRecord, out: Outgoing): Promise<CallbackAttempt> {
    const started = now();
    const headers = { ...out.headers };
    if (out.sign)
      headers[out.sign.header] = signatureOf(
        out.sign.format,
        out.sign.secret,
        out.body ?? '',
        Math.floor(now() / 1000),
      );
    r.headers = out.mask(headers);
    const controller = new AbortController();
    controllers.add(controller);
    const timer = setTimeout(
      () => controller.abort(new Error(`no answer within ${l.timeoutMs} ms`)),
      l.timeoutMs,
    );
    try {
      const res = await fetch(out.url, {
        method: r.method,
        headers,
        body: out.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      r.answer = excerpt(out.maskText(await readSome(res, ANSWER_BYTES)));
      return { status: res.status, ms: now() - started };
    } catch (err) {
      const reason = controller.signal.aborted
        ? `no answer within ${l.timeoutMs} ms`
        : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
      return { status: 0, error: reason, ms: now() - started };
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
    }
  }

  async function send(r: CallbackRecord, out: Outgoing): Promise<void> {
    for (let i = 0; i < 2 && !closed; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, l.backoffMs));
      const a = await attempt(r, out);
      r.attempts.push(a);
      if (a.status !== 0 && a.status < 500) {
        r.outcome = 'sent';
        return;
      }
    }
    r.outcome = 'failed';
    const last = r.attempts[r.attempts.length - 1];
    r.reason = last?.error ?? `answered ${last?.status ?? 0}`;
    log?.event('warn', `${r.kind} failed`, {
      operationId: r.operationId,
      [r.kind]: r.name,
      reason: r.reason,
    });
  }

  return {
    outbox(sends) {
      for (const s of sends) {
        const secrets = s.secretValues ?? [];
        const secretHeaders = new Set(s.secretHeaders ?? []);
        const mask = (h: Record<string, string>) => maskHeaderValues(h, secretHeaders, secrets);
        const maskText = (text: string) => maskKnownSecrets(text, secrets);
        const bytes =
          s.body === undefined || s.method === 'GET' || s.method === 'HEAD'
            ? undefined
            : JSON.stringify(s.body);
        const r: CallbackRecord = {
          t: now(),
          kind: s.kind ?? 'callback',
          ...(s.event ? { event: s.event } : {}),
          operationId: s.operationId,
          name: s.name,
          method: s.method,
          url:
            s.url === undefined
              ? undefined
              : maskUrl(maskUrlSecrets(s.url, new Set(s.secretQuery ?? []), secrets)),
          headers: mask(s.headers),
          body: keptBody(s.body, maskText),
          ...(s.sign ? { signed: { header: s.sign.header, format: s.sign.format } } : {}),
          ...(s.note ? { note: s.note } : {}),
          outcome: 'pending',
          attempts: [],
        };
        keep(r);
        const problem = s.problem ?? (s.url === undefined ? 'no URL' : targetProblem(s.url, l.hosts));
        if (problem || s.url === undefined) {
          r.outcome = 'refused';
          r.reason = maskSecrets(maskText(problem ?? 'no URL'));
          continue;
        }
        if (closed || pending >= l.maxPending) {
          r.outcome = 'dropped';
          r.reason = closed ? 'the mock is stopping' : `${l.maxPending} sends are in flight already`;
          continue;
        }
        pending++;
        void send(r, { url: s.url, headers: s.headers, body: bytes, sign: s.sign, mask, maskText }).finally(
          settle,
        );
      }
    },
    list() {
      return [...ring.slice(next), ...ring.slice(0, next)].filter(Boolean).reverse();
    },
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    close() {
      closed = true;
      for (const c of controllers) c.abort(new Error('the mock is stopping'));
    },
  };
}
