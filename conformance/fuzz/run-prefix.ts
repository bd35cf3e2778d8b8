/**
 * Pure: a fuzz or replay body with the run prefix in its free-text strings, so that whatever a server stores from
 * it is recognisable as this run's (docs/check-a-server.md: "everything it creates is named with a run prefix").
 * Applied when a body is sent, never to the cases as generated: the same --seed still draws, shrinks and saves the
 * same bodies. A free-text string is a string property whose schema gives no format, pattern, enum or const.
 *
 * - Every length is kept where a string is long enough: its head is overwritten by the prefix and its
 *   distinctive end kept (a `maxLength + 1` case is still one over), so the verdict it is sent for is unchanged.
 * - In a body the document accepts, a shorter string gets the prefix in front (`rabbit` -> `conformance-…-rabbit`),
 *   where the body stays accepted.
 * A string too short in a body the document refuses, or bounded too tightly (`maxLength: 5`), is sent as it is; so
 * is a body that is not an object (a JSON Patch).
 */
import { isObject } from '../../spec/json';
import { objectShape, typesOf, type Schema } from '../../spec/schema-shape';

type Json = Record<string, unknown>;

/** Characters of a string's own end kept when the prefix overwrites its head. */
const KEPT_END = 4;

function freeText(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (!typesOf(schema as Schema).includes('string')) return false;
  return ['format', 'pattern', 'enum', 'const', 'readOnly'].every((k) => schema[k] === undefined);
}

type Rewrite = (value: string) => string | undefined;

/** `value` (an object against `schema`) with `rewrite` applied to its free-text strings, nested objects too. */
function rewriteStrings(value: unknown, schema: unknown, rewrite: Rewrite, depth = 0): unknown {
  if (depth > 8) return value;
  if (Array.isArray(value)) {
    // Items that are objects only: rewriting strings of one array could make two items equal (uniqueItems).
    const items = isObject(schema) ? schema.items : undefined;
    return value.map((v) => (isObject(v) ? rewriteStrings(v, items, rewrite, depth + 1) : v));
  }
  if (!isObject(value)) return value;
  const shape = isObject(schema) ? objectShape(schema as Schema) : null;
  if (!shape) return value;
  let out: Json | undefined;
  for (const [name, v] of Object.entries(value)) {
    const prop = shape.properties[name];
    let next: unknown = v;
    if (typeof v === 'string' && freeText(prop)) next = rewrite(v) ?? v;
    else if (typeof v === 'object' && v !== null) next = rewriteStrings(v, prop, rewrite, depth + 1);
    if (next !== v) (out ??= { ...value })[name] = next;
  }
  return out ?? value;
}

/** The head of `value` overwritten by `prefix`, its length kept; undefined when it is too short to hold it. */
function overwriteHead(value: string, prefix: string): string | undefined {
  if (value.startsWith(prefix)) return undefined;
  const head = `${prefix}-`;
  const chars = [...value];
  if (chars.length < head.length + KEPT_END) return undefined;
  return head + chars.slice(head.length).join('');
}

/**
 * `body` as sent by a run whose prefix is `prefix`; `validate` is the request body's schema check (a body it
 * accepts gets the prefix in front, where it stays accepted).
 */
export function withRunPrefix(
  body: unknown,
  schema: unknown,
  prefix: string,
  validate?: (value: unknown) => boolean,
): unknown {
  // A body that is an array (a JSON Patch: its `path`s are not names) is sent as it is.
  if (!isObject(body)) return body;
  const kept = rewriteStrings(body, schema, (v) => overwriteHead(v, prefix));
  if (!validate || !validate(body)) return kept;
  let out = validate(kept) ? kept : body;
  // An accepted body: each string still without the prefix gets it in front, one at a time, where the body stays
  // accepted (`code` bounded to 5 characters keeps its value, `name` beside it still gets the prefix).
  for (let i = 0; i < 64; i++) {
    let seen = 0;
    const candidate = rewriteStrings(out, schema, (v) =>
      seen++ !== i || v.startsWith(prefix) ? undefined : `${prefix}-${v}`,
    );
    if (seen <= i) break;
    if (validate(candidate)) out = candidate;
  }
  return out;
}
