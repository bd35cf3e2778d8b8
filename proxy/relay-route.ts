/**
 * The proxy's side of `--callbacks-relay` (the table is callback-relay.ts): a request's callback URLs rewritten
 * to the relay before it goes upstream, and a callback the upstream sends to a relay path judged against the
 * callbacks documented for it (spec/callbacks.ts, the runner's judge) and forwarded to the target the client named.
 */
import type http from 'node:http';
import { judgeCallback } from '../spec/callbacks';
import type { ErrorCode } from '../spec/error-codes';
import type { Judge } from './judge/judge';
import type { ObservedRequest, Problem } from './judge/judge-request';
import { sendOwn } from './exchange';
import type { Exchange } from './exchange';
import type { Rewritten } from './forward-exchange';
import { flatHeaders, headerText } from './forward-exchange';
import type { OwnAnswers } from './own-answers';
import { RELAY_PREFIX, type PendingRelay, type Relay, type RelayRequest } from './callback-relay';
import { readLimited, type LimitedRead } from './read-limited';

/** What the relay route needs. */
export interface RelayContext {
  relay: Relay;
  judge: Judge;
  answers: OwnAnswers;
  timeoutMs: number;
  maxBodyBytes: number;
}

/** The request with its callback URL sources pointing at the relay (a JSON body only when read whole, plain). */
export function rewriteForRelay(r: Relay, x: Exchange, read: LimitedRead): Rewritten {
  const { req, route } = x;
  const type = headerText(req.headers['content-type']) ?? '';
  const plainJson =
    /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) && !req.headers['content-encoding'] && !read.unjudged;
  const given: RelayRequest = {
    search: x.search,
    headers: flatHeaders(req.headers),
    ...(plainJson && read.text ? { json: read.text } : {}),
  };
  const out = r.rewrite(route.op?.operationId ?? '', route.op?.callbacks ?? [], given);
  const body = out.json !== given.json && out.json !== undefined ? Buffer.from(out.json) : undefined;
  const headers: http.IncomingHttpHeaders = { ...out.headers };
  if (body) {
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  return { search: out.search, headers, ...(body ? { body } : {}) };
}

/** A callback the upstream sent to a relay path: judged as it arrives, then forwarded; its answer goes back. */
export async function relayCallback(
  c: RelayContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  at: { token: string; rest: string },
  search: string,
): Promise<void> {
  const own = (status: number, code: ErrorCode, message: string, violations: number) =>
    sendOwn(res, c.answers.render(undefined, status, code, message, callerOf(req)), violations);
  let read: LimitedRead;
  try {
    read = await readLimited(
      req,
      c.maxBodyBytes,
      headerText(req.headers['content-encoding']),
      req.headers['content-length'],
    );
  } catch {
    return void res.destroy();
  }
  const observed: ObservedRequest = {
    method: req.method ?? 'POST',
    // The token is a capability while it lives: reports and the inspector show where it went, not the token.
    url: `${RELAY_PREFIX}…${at.rest}${search}`,
    headers: flatHeaders(req.headers),
    body: read.tooLarge ? undefined : read.text,
    bodyTooLarge: read.tooLarge,
  };
  if (read.tooLarge) {
    // Bounded like every body the proxy reads: not relayed in part, not judged.
    req.resume();
    const message = `the callback's body is over --max-body-bytes (${c.maxBodyBytes}): not relayed`;
    return own(413, 'payload_too_large', message, 0);
  }
  const pending = c.relay.lookup(at.token);
  if (!pending) {
    const message = 'a callback arrived at a relay path the proxy never handed out, or one expired';
    c.judge.callback(
      observed,
      undefined,
      [{ side: 'response', rule: 'callbacks.undocumented', message }],
      404,
    );
    return own(404, 'not_found', message, 1);
  }
  const problems = judgeRelayed(pending, observed, read.text);
  // Judged as it arrives, before the target answers: the finding does not wait on the client's receiver.
  c.judge.callback(observed, pending.operationId, problems);
  try {
    const answer = await fetch(`${pending.target}${at.rest}${search}`, {
      method: observed.method,
      headers: forwardable(observed.headers),
      body: ['GET', 'HEAD'].includes(observed.method) ? undefined : Buffer.concat(read.chunks),
      redirect: 'manual',
      signal: AbortSignal.timeout(c.timeoutMs),
    });
    const text = await readAnswer(answer, c.maxBodyBytes);
    if (!text) {
      const message = `the callback target's answer is over --max-body-bytes (${c.maxBodyBytes})`;
      return own(502, 'bad_gateway', message, problems.length);
    }
    const type = answer.headers.get('content-type');
    res.writeHead(answer.status, {
      ...(type ? { 'content-type': type } : {}),
      'content-length': text.length,
      'contract-violations': String(problems.length),
    });
    res.end(text);
  } catch (err) {
    const message = `the callback's target cannot be reached: ${(err as Error).message}`;
    own(502, 'bad_gateway', message, problems.length);
  }
}

/** The callback's problems: the runner's judge, plus one for a callback not documented or sent twice. */
function judgeRelayed(pending: PendingRelay, observed: ObservedRequest, body: string): Problem[] {
  const verdict = judgeCallback(
    pending.specs,
    { method: observed.method, headers: observed.headers, body },
    pending.taken,
  );
  const problems: Problem[] = verdict.problems.map((p) => ({
    side: 'response',
    rule: p.rule,
    message: p.message,
  }));
  const undocumented = (message: string) =>
    problems.push({ side: 'response', rule: 'callbacks.undocumented', message });
  if (!verdict.match)
    undocumented(`a ${observed.method} is no documented callback of ${pending.operationId}`);
  else if (pending.taken.has(verdict.match))
    undocumented(`callback ${verdict.match.name} of ${pending.operationId} arrived more than once`);
  if (verdict.match) pending.taken.add(verdict.match);
  return problems;
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);
/** The callback's headers as the target gets them (this hop's own left out). */
function forwardable(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP.has(name)) out[name] = value;
  return out;
}

const callerOf = (req: http.IncomingMessage) => ({
  headers: req.headers,
  address: req.socket.remoteAddress ?? '',
});

/** A fetch answer's body, read up to `limit` bytes; undefined (and the rest cancelled) when it is longer. */
async function readAnswer(answer: Response, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!answer.body) return Buffer.alloc(0);
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > limit) {
      await answer.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
