/**
 * OpenAPI callbacks as the receiving side sees them (issue 33): what each documented callback of an operation is
 * (its name, URL expression, method, body validator) and one judge of a callback request that arrived. The
 * runner's receiver (`--callbacks-listen`) and the proxy's relay (`--callbacks-relay`) both judge with
 * `judgeCallback`: one reader of "is this callback what the document says". Pure; no I/O.
 *
 * Which request value a callback's URL comes from (`sourceOf`): the expression the URL key starts with, when a
 * client can set it (`$request.body#/pointer`, `$request.query.name`, `$request.header.name`). A key that starts
 * with anything else (a literal host, `$response.…`, `{webhookURL}`) cannot be pointed at a receiver.
 */
import type { ValidateFunction } from 'ajv';
import { isObject } from './json';
import { operationsOf } from './methods';

/** A request value a client sets and a callback URL starts with. */
export type CallbackSource =
  { in: 'body'; pointer: string } | { in: 'query'; name: string } | { in: 'header'; name: string };

/** One documented callback request (a callback name, a URL key, a method). */
export interface CallbackSpec {
  /** The callback's name under the operation's `callbacks`. */
  name: string;
  /** The URL key as written (`{$request.body#/callbackUrl}`). */
  key: string;
  /** Upper case (`POST`). */
  method: string;
  /** Where the URL's start comes from; undefined when a client cannot set it (see `sourceProblem`). */
  source?: CallbackSource;
  sourceProblem?: string;
  /** Documented media types of the callback's body; empty when it documents none. */
  mediaTypes: string[];
  bodyRequired: boolean;
  /** The JSON body's validator (the request view), compiled on first use; undefined without a JSON schema. */
  validate?: ValidateFunction;
}

/** The document's compile function (spec/compile.ts): a lazily compiled validator of a schema in a direction. */
export type CompileSchema = (schema: unknown, direction: 'request', where: string) => ValidateFunction;

export type CallbackRule = 'callbacks.method' | 'callbacks.body-schema';

export interface CallbackProblem {
  rule: CallbackRule;
  message: string;
}

/** A callback request as it arrived (at the runner's receiver or the proxy's relay). */
export interface CallbackArrival {
  method: string;
  headers: Readonly<Record<string, string | undefined>>;
  /** The body's text ('' when none). */
  body: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
const base = (type: string | undefined): string => (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Pure: the request value a callback URL key starts with, or why a client cannot point it anywhere. */
export function sourceOf(key: string): { source: CallbackSource } | { problem: string } {
  const m = key.startsWith('$') ? /^(.*)$/.exec(key) : /^\{([^}]*)\}/.exec(key);
  const expression = m?.[1]?.trim();
  const none = {
    problem: `its URL ${key} does not start with a request value a client sets ($request.body#/…, $request.query.…, $request.header.…)`,
  };
  if (!expression) return none;
  const body = /^\$request\.body#(\/.*)$/.exec(expression);
  if (body?.[1]) return { source: { in: 'body', pointer: body[1] } };
  const named = /^\$request\.(query|header)\.(.+)$/.exec(expression);
  if (named?.[1] && named[2]) return { source: { in: named[1] as 'query' | 'header', name: named[2] } };
  return none;
}

/** The callbacks of one operation (its dereferenced `callbacks` object), each body validator compiled lazily. */
export function compileCallbacks(callbacks: unknown, compile: CompileSchema, where: string): CallbackSpec[] {
  if (!isObject(callbacks)) return [];
  const out: CallbackSpec[] = [];
  for (const [name, callback] of Object.entries(callbacks)) {
    if (!isObject(callback)) continue;
    for (const [key, item] of Object.entries(callback)) {
      if (!isObject(item)) continue;
      for (const { method, operation } of operationsOf(item)) {
        const op = operation as unknown as Record<string, unknown>;
        const body = isObject(op.requestBody) ? op.requestBody : undefined;
        const content = isObject(body?.content) ? body.content : {};
        const mediaTypes = Object.keys(content);
        const json = mediaTypes.find((t) => JSON_TYPE.test(base(t)));
        const media = json ? content[json] : undefined;
        const schema = isObject(media) && isObject(media.schema) ? media.schema : undefined;
        const found = sourceOf(key);
        out.push({
          name,
          key,
          method: method.toUpperCase(),
          ...('source' in found ? { source: found.source } : { sourceProblem: found.problem }),
          mediaTypes,
          bodyRequired: body?.required === true,
          validate: schema
            ? compile(schema, 'request', `${where} callback ${name} ${method} requestBody`)
            : undefined,
        });
      }
    }
  }
  return out;
}

/** RFC 6901 segments of a pointer (`/a~1b/c` -> `['a/b', 'c']`). */
const segments = (pointer: string): string[] =>
  pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** Pure: the value a source names in a request, or undefined. */
export function readSource(
  source: CallbackSource,
  request: { body?: unknown; query: URLSearchParams; headers: Readonly<Record<string, string | undefined>> },
): string | undefined {
  if (source.in === 'query') return request.query.get(source.name) ?? undefined;
  if (source.in === 'header') return request.headers[source.name.toLowerCase()];
  let here: unknown = request.body;
  for (const key of segments(source.pointer)) {
    if (Array.isArray(here) && /^\d+$/.test(key)) here = here[Number(key)];
    else if (isObject(here)) here = here[key];
    else return undefined;
  }
  return typeof here === 'string' ? here : undefined;
}

/**
 * Pure: `body` with the value at a body source's pointer set to `url` (objects on the way created, the rest
 * kept); `body` itself is not changed. A pointer through a non-object (an array, a string) leaves it as it was.
 */
export function setBodySource(body: unknown, pointer: string, url: string): unknown {
  const keys = segments(pointer);
  const set = (node: unknown, at: number): unknown => {
    const key = keys[at];
    if (key === undefined) return url;
    if (node !== undefined && !isObject(node)) return node;
    const object = node ?? {};
    return { ...object, [key]: set(object[key], at + 1) };
  };
  return set(body, 0);
}

const excerpt = (errors: ValidateFunction['errors']): string =>
  (errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim())
    .join('; ');

/** Pure: what is wrong with an arrival's body for one callback (its media type, presence, JSON, schema). */
function bodyProblems(spec: CallbackSpec, arrival: CallbackArrival): string[] {
  const label = `callback ${spec.name} (${spec.method})`;
  if (arrival.body === '')
    return spec.bodyRequired ? [`${label}: the body is empty; the document requires one`] : [];
  if (spec.mediaTypes.length === 0) return [];
  const type = base(arrival.headers['content-type']);
  if (!spec.mediaTypes.some((t) => base(t) === type))
    return [`${label}: Content-Type ${type || 'missing'}, documented: ${spec.mediaTypes.join(', ')}`];
  if (!spec.validate || !JSON_TYPE.test(type)) return [];
  let value: unknown;
  try {
    value = JSON.parse(arrival.body) as unknown;
  } catch {
    return [`${label}: the body is not JSON`];
  }
  if (spec.validate(value)) return [];
  return [`${label}: body invalid against the callback's request schema: ${excerpt(spec.validate.errors)}`];
}

/**
 * Pure: judge one callback request against the callbacks expected where it arrived (one URL may be documented
 * for several callbacks: a webhook URL that receives every event). The arrival matches the first candidate of
 * its method whose body fits, preferring those not `taken` yet (each documented callback is expected once);
 * no candidate of its method is a `callbacks.method` problem; a body that fits none a `callbacks.body-schema`
 * problem (naming the closest candidate's errors).
 */
export function judgeCallback(
  candidates: readonly CallbackSpec[],
  arrival: CallbackArrival,
  taken: ReadonlySet<CallbackSpec> = new Set(),
): { match?: CallbackSpec; problems: CallbackProblem[] } {
  const method = arrival.method.toUpperCase();
  const same = candidates.filter((c) => c.method === method);
  if (same.length === 0) {
    const documented = [...new Set(candidates.map((c) => c.method))].join(' or ') || 'no callback';
    return {
      problems: [
        {
          rule: 'callbacks.method',
          message: `a ${method} arrived where the document has ${documented} (${candidates.map((c) => c.name).join(', ')})`,
        },
      ],
    };
  }
  const ordered = [...same.filter((c) => !taken.has(c)), ...same.filter((c) => taken.has(c))];
  let closest: { match: CallbackSpec; problems: string[] } | undefined;
  for (const candidate of ordered) {
    const problems = bodyProblems(candidate, arrival);
    if (problems.length === 0) return { match: candidate, problems: [] };
    closest ??= { match: candidate, problems };
  }
  return {
    match: closest?.match,
    problems: (closest?.problems ?? []).map((message) => ({ rule: 'callbacks.body-schema', message })),
  };
}
