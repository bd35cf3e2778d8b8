/**
 * Recorded traffic replayed against the next version of a document, without a server: each recorded request
 * through the judge's own request rules under the old and the new document (which calls the new one would
 * refuse, and why), each recorded answer through its response rules under both (which answers the new one would
 * reject). Only what the old document accepted and the new one does not is counted: a client's fault the old
 * version refused already is not a change. Every example is masked (no key, token or cookie value).
 */
import type { LoadedSpec } from '../../spec/load';
import { maskKnownSecrets, maskUrlSecrets } from '../../spec/mask';
import type { OperationTraffic, TrafficReplay } from '../../spec/diff/types';
import { observedOf, type HarLikeEntry } from './judge-har';
import { judgeRequest, routeRequest, type ObservedRequest } from './judge-request';
import { judgeResponse, toExchange, type ObservedResponse } from './judge-response';
import { secretNames } from './judge-report';

/** Examples kept per operation (the counts are exact; the examples are a sample). */
const EXAMPLES = 3;

/** One recorded source: its name and its entries. */
export interface RecordedFile {
  file: string;
  entries: readonly HarLikeEntry[];
}

/** Replay every entry of `files` against `after`, routed and first judged by `before`. */
export function replayTraffic(
  before: LoadedSpec,
  after: LoadedSpec,
  files: readonly RecordedFile[],
): TrafficReplay {
  const replay: TrafficReplay = {
    files: files.map((f) => f.file),
    recorded: 0,
    outside: 0,
    alreadyRefused: 0,
    operations: [],
  };
  const byId = new Map<string, OperationTraffic>();
  const mask = masker(before, after);
  for (const { entries } of files)
    for (const entry of entries) {
      if (entry.response.status === 0) continue;
      const seen = observedOf(entry);
      if (!seen) continue;
      replay.recorded++;
      replayOne(before, after, seen.req, seen.res, byId, replay, mask);
    }
  replay.operations = before.operations.flatMap((op) => byId.get(op.operationId) ?? []);
  return replay;
}

type Mask = (text: string, req: ObservedRequest) => string;

function replayOne(
  before: LoadedSpec,
  after: LoadedSpec,
  req: ObservedRequest,
  res: ObservedResponse,
  byId: Map<string, OperationTraffic>,
  replay: TrafficReplay,
  mask: Mask,
): void {
  const path = req.url.split('?')[0] ?? '/';
  const old = routeRequest(before, req.method, path);
  if (!old.op) {
    replay.outside++;
    return;
  }
  const op = old.op;
  let t = byId.get(op.operationId);
  if (!t)
    byId.set(
      op.operationId,
      (t = {
        operationId: op.operationId,
        method: op.method.toUpperCase(),
        path: op.path,
        calls: 0,
        refused: 0,
        rejected: 0,
        removed: false,
        reasons: {},
        examples: [],
        statuses: {},
      }),
    );
  t.calls++;
  if (judgeRequest(before, req, old).length > 0) {
    replay.alreadyRefused++;
    return;
  }
  t.statuses[res.status] = (t.statuses[res.status] ?? 0) + 1;
  const next = routeRequest(after, req.method, path);
  const refused = judgeRequest(after, req, next);
  if (!next.op) t.removed = true;
  if (refused.length > 0) {
    t.refused++;
    const messages = [...new Set(refused.map((p) => mask(`${p.rule}: ${p.message}`, req)))];
    for (const m of messages) t.reasons[m] = (t.reasons[m] ?? 0) + 1;
    keep(t, req, undefined, messages.join('; '), mask);
    return;
  }
  // The answer, judged by both versions: only what the new one adds is the change's.
  const problems = (spec: LoadedSpec, route: ReturnType<typeof routeRequest>) =>
    judgeResponse(spec, toExchange(req, res, route, 0), [], res).map((p) => `${p.rule}: ${p.message}`);
  const was = new Set(problems(before, old));
  const added = problems(after, next).filter((p) => !was.has(p));
  if (added.length === 0) return;
  t.rejected++;
  const messages = [...new Set(added.map((m) => mask(`answer ${res.status}: ${m}`, req)))];
  for (const m of messages) t.reasons[m] = (t.reasons[m] ?? 0) + 1;
  keep(t, req, res.status, messages.join('; '), mask);
}

function keep(
  t: OperationTraffic,
  req: ObservedRequest,
  status: number | undefined,
  problem: string,
  mask: Mask,
): void {
  if (t.examples.length >= EXAMPLES) return;
  t.examples.push({
    method: req.method,
    url: mask(req.url, req),
    ...(status !== undefined ? { status } : {}),
    problem,
  });
}

/** Masks a text: credentials named by either document, and any credential value the request carried. */
function masker(before: LoadedSpec, after: LoadedSpec): Mask {
  const a = secretNames(before);
  const b = secretNames(after);
  const query = new Set([...a.query, ...b.query]);
  const headers = new Set([...a.headers, ...b.headers, 'authorization', 'proxy-authorization', 'cookie']);
  return (text, req) => {
    const values: string[] = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (!headers.has(name)) continue;
      values.push(value);
      // `Bearer <token>`: the token; `a=1; b=2`: each cookie value.
      if (name.endsWith('authorization')) values.push(value.replace(/^\S+\s+/, ''));
      if (name === 'cookie')
        values.push(...value.split(/;\s*/).map((pair) => pair.slice(pair.indexOf('=') + 1)));
    }
    const q = new URLSearchParams(req.url.split('?')[1] ?? '');
    for (const name of query) {
      const v = q.get(name);
      if (v) values.push(v);
    }
    // Longest first, so a whole header value is masked before its token.
    const sorted = [...new Set(values)].sort((x, y) => y.length - x.length);
    return maskUrlSecrets(maskKnownSecrets(text, sorted), query, sorted);
  };
}
