/**
 * One document of the sweep (bench/sweep.ts), in its own process so its memory ends with it: load the document
 * with the engine's loader, plan requests (every GET without required parameters, a create with a valid body per
 * top-level resource, the created item read back), send them to the mock listening on `port`, judge each
 * answer (sweep-judge.ts) and print one JSON line: what was sent and what broke the document.
 * Usage: node --import tsx bench/lib/sweep-worker.ts DOCUMENT PORT KEY [PRISM_PROXY_PORT]
 */
import { loadSpec, type LoadedSpec, type OperationSpec } from '../../spec/load';
import { inferResources, type Resource } from '../../spec/resources';
import { unwrap } from '../../spec/envelope';
import { generateValid } from '../../conformance/generate/values';
import { withoutClientId } from '../../conformance/build/requests';
import { seededRandom } from '../../conformance/send/check-context';
import { emptyPlacement, place, type Placement } from '../../conformance/send/credentials';
import type { Exchange } from '../../conformance/types';
import { missingRequired } from '../../conformance/send/required-params';
import { judgeAnswer, type SweepAnswer } from './sweep-judge';
import { prismProblems, prismVerdict, textUnread, xmlUnread } from './sweep-prism';
import { textJudge } from './sweep-text';
import { operationObject } from '../../spec/methods';
import { xmlJudge } from './sweep-xml';
import { documentedResponse } from '../../spec/compile';
import { isXmlMediaType } from '../../spec/xml';

export type { SweepAnswer } from './sweep-judge';

export interface WorkerResult {
  answers: SweepAnswer[];
  /** Why the worker could not plan (the document did not load here), else undefined. */
  error?: string;
}

const MAX_READS = 25;
const MAX_CREATES = 3;
const REQUEST_TIMEOUT_MS = 5000;

type Plan = { op: OperationSpec; path: string; body?: unknown }[];

/** The credential for `op`: its first security alternative, every scheme of it carrying the key. */
function credentials(spec: LoadedSpec, op: OperationSpec, key: string): Placement {
  const into = emptyPlacement();
  for (const name of op.security[0] ?? []) place(spec.securitySchemes[name], key, into);
  return into;
}

/** How the plan reaches the mock: `fetch` over HTTP, or an in-process fetch handler. */
export type Call = (request: Request) => Promise<Response>;

export interface Target {
  spec: LoadedSpec;
  call: Call;
  base: string;
  key: string;
  /** Prism's validation proxy in front of the mock (JUDGE=prism): the plan goes through it, judged by both. */
  prism?: { base: string };
}

interface Sent {
  exchange: Exchange;
  json?: unknown;
  verdict?: ReturnType<typeof prismVerdict>;
}

/** Send through Prism when it judges (its upstream carries the base path); to ours again if it answered itself. */
async function send(target: Target, step: Plan[number]): Promise<Sent> {
  if (!target.prism) return sendTo(target, target.base + target.spec.basePath, step);
  const judged = await sendTo(target, target.prism.base, step);
  const { response } = judged.exchange;
  // Prism's proxy gave no answer (it stopped on a document it cannot read): ours is asked directly and Prism
  // judges nothing; the failure is listed with the plan's requests, not against our answer.
  if (!response) {
    const direct = await sendTo(target, target.base + target.spec.basePath, step);
    const failed = `Prism gave no answer: ${judged.exchange.error ?? ''}`;
    return {
      ...direct,
      verdict: { response: [], request: [failed], selfAnswered: true, requestRefused: true },
    };
  }
  const verdict = prismVerdict(response.headers, response.body);
  if (!verdict.selfAnswered) return { ...judged, verdict };
  // Prism's own answer is not ours: ours is asked directly for our rules' verdict (and the id to read back).
  return { ...(await sendTo(target, target.base + target.spec.basePath, step)), verdict };
}

async function sendTo({ spec, call, key }: Target, prefix: string, step: Plan[number]): Promise<Sent> {
  const { op } = step;
  const cred = credentials(spec, op, key);
  const url = new URL(prefix + step.path.replace(/#/g, '%23').replace(/\?/g, '%3F'));
  for (const [k, v] of Object.entries(cred.query)) url.searchParams.set(k, v);
  // Required query and header parameters get valid values, as a client that reads the document sends them.
  const required = missingRequired(op, { query: (n) => url.searchParams.has(n), headers: cred.headers });
  for (const [k, v] of Object.entries(required.query)) url.searchParams.set(k, v);
  // JSON first, as a client that reads JSON asks; anything else the operation answers is accepted too.
  const headers: Record<string, string> = {
    Accept: 'application/json, */*;q=0.1',
    ...required.headers,
    ...cred.headers,
  };
  const body = step.body === undefined ? undefined : JSON.stringify(step.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const sentAt = Date.now();
  const request = { method: op.method.toUpperCase(), url: url.toString(), headers: {}, body };
  try {
    const res = await call(
      new Request(url, {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    );
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const response = { status: res.status, headers: Object.fromEntries(res.headers), body: text, json };
    return {
      exchange: { request, response, operationId: op.operationId, sentAt, receivedAt: Date.now() },
      json,
    };
  } catch (err) {
    return {
      exchange: {
        request,
        error: (err as Error).message,
        operationId: op.operationId,
        sentAt,
        receivedAt: Date.now(),
      },
    };
  }
}

function record(spec: LoadedSpec, step: Plan[number], { exchange, verdict }: Sent): SweepAnswer {
  const status = exchange.response?.status ?? 0;
  const problems = exchange.response ? judgeAnswer(spec, exchange) : [`no answer: ${exchange.error ?? ''}`];
  const answer = {
    operationId: step.op.operationId,
    method: step.op.method,
    path: step.path,
    status,
    problems,
  };
  if (!verdict) return answer;
  const type = exchange.response?.headers['content-type'] ?? '';
  // An operation that documents no 2xx (nor `default`, nor a 1xx/3xx) has only its errors to answer with.
  const success = [...step.op.responses.keys()].some((k) => !/^[45]/.test(k));
  const prism = prismProblems(verdict, status, exchange.response?.body, type, success);
  const xml = xmlUnread(verdict.response, type) || undefined;
  // The XML body Prism read as text is judged by the second reader instead (sweep-xml.ts).
  const documented = isXmlMediaType(type) ? documentedResponse(step.op, status)?.xml : undefined;
  if (prism && documented && exchange.response?.body)
    prism.push(...xmlJudge(exchange.response.body, documented.schema, documented.validate));
  // A text answer of an object schema Prism read as a string: judged by the second text reader instead.
  const text = textUnread(verdict.response, type) || undefined;
  if (prism && text)
    prism.push(
      ...textJudge(exchange.response?.body ?? '', baseOf(type), mediaSchema(spec, step.op, status, type)),
    );
  return { ...answer, prism, prismRequest: verdict.request, xmlUnread: xml, textUnread: text };
}

const baseOf = (type: string): string => (type.split(';')[0] ?? '').trim().toLowerCase();

/** The schema the document gives the answer's media type (its status, else its range, else `default`). */
function mediaSchema(spec: LoadedSpec, op: OperationSpec, status: number, type: string): unknown {
  const responses = operationObject(spec.document, op.path, op.method)?.responses as Record<string, unknown>;
  const s = String(status);
  const res = (responses?.[s] ?? responses?.[`${s[0] ?? ''}XX`] ?? responses?.default) as
    { content?: Record<string, { schema?: unknown }> } | undefined;
  const content = res?.content ?? {};
  const key = Object.keys(content).find((k) => baseOf(k) === baseOf(type)) ?? Object.keys(content)[0];
  return key === undefined ? undefined : content[key]?.schema;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The last path segment of a `Location` header, decoded: the created item's id. */
export function idFromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  const path = location.replace(/^[a-z]+:\/\/[^/]*/i, '').split(/[?#]/)[0] ?? '';
  const last = path.split('/').filter(Boolean).at(-1);
  try {
    return last === undefined ? undefined : decodeURIComponent(last);
  } catch {
    return undefined;
  }
}

/** Create one item of `resource` and read it back when the document can. */
async function createAndRead(
  target: Target,
  resource: Resource,
  random: () => number,
): Promise<SweepAnswer[]> {
  const { spec } = target;
  const op = spec.byId.get(resource.operations.create ?? '');
  if (!op?.requestBody || op.requestBody.kind !== 'json') return [];
  const full = generateValid(op.requestBody.schema, random, 'sweep', { full: true });
  // The client's id is left for the service to take from elsewhere, unless the body's schema requires it
  // (IoT Events' `alarmModelName`): a body without it would be the plan's invalid request.
  const stripped = withoutClientId(resource, full);
  const body = op.requestBody.validate(stripped) ? stripped : full;
  const step = { op, path: op.path, body };
  const created = await send(target, step);
  const out = [record(spec, step, created)];
  const read = spec.byId.get(resource.operations.read ?? '');
  const item = unwrap(created.json, resource.envelope);
  const fromBody = isObject(item) && resource.idField ? item[resource.idField] : undefined;
  // A create documented with no body (only a `Location`, as waterlinked's and Velo's) names the item there.
  const id = fromBody ?? idFromLocation(created.exchange.response?.headers.location);
  const status = created.exchange.response?.status ?? 0;
  if (!read || !resource.itemPath || status < 200 || status > 299) return out;
  if (typeof id !== 'string' && typeof id !== 'number') {
    out.push({ ...out[0]!, problems: [`created item carries no id ${resource.idField ?? ''}`] });
    return out;
  }
  const readStep = {
    op: read,
    path: resource.itemPath.replace(`{${resource.itemParam ?? ''}}`, encodeURIComponent(String(id))),
  };
  out.push(record(spec, readStep, await send(target, readStep)));
  return out;
}

/** Send the plan to the mock behind `call` (at `base`, under `key`) and judge every answer. */
export async function sweepDocument(target: Target): Promise<SweepAnswer[]> {
  const { spec } = target;
  const random = seededRandom(1);
  const answers: SweepAnswer[] = [];
  // A read documented by `101 Switching Protocols` alone (a WebSocket endpoint) has no HTTP answer to judge.
  const reads = spec.operations.filter(
    (op) =>
      op.method === 'get' && !op.path.includes('{') && ![...op.responses.keys()].every((s) => /^1/.test(s)),
  );
  for (const op of reads.slice(0, MAX_READS)) {
    const step = { op, path: op.path };
    answers.push(record(spec, step, await send(target, step)));
  }
  const inferred = inferResources(spec);
  const resources = inferred.ok
    ? inferred.model.resources.filter((r) => r.operations.create && !r.collectionPath.includes('{'))
    : [];
  for (const r of resources.slice(0, MAX_CREATES)) answers.push(...(await createAndRead(target, r, random)));
  return answers;
}

if (require.main === module) {
  const [file, port, key, prismPort] = process.argv.slice(2);
  const run = async (): Promise<WorkerResult> => {
    const loaded = await loadSpec(file ?? '');
    if (!loaded.ok) return { answers: [], error: loaded.error.split('\n')[0] };
    const target: Target = {
      spec: loaded.spec,
      call: fetch,
      base: `http://127.0.0.1:${port ?? ''}`,
      key: key ?? '',
      prism: prismPort ? { base: `http://127.0.0.1:${prismPort}` } : undefined,
    };
    return { answers: await sweepDocument(target) };
  };
  run()
    .then((r) => process.stdout.write(`${JSON.stringify(r)}\n`))
    .catch((err: Error) => process.stdout.write(`${JSON.stringify({ answers: [], error: err.message })}\n`))
    .finally(() => process.exit(0));
}
