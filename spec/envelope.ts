/**
 * Bodies wrapped in a named object (issue 26.1): `POST /articles {"article": {...}}` answered `{"article": {...}}`.
 * A single-property object whose property holds an object schema is a wrapper; a resource whose create takes
 * one and answers one under the same name keeps its items unwrapped and wraps them on the way in and out. The
 * mock and the runner share these helpers, so they agree on what is wrapped.
 */
import type { OperationSpec } from './compile';
import { objectShape, type Schema } from './schema-shape';
import { isObject as isRecord } from './json';
import { successResponses } from './success';

export interface Wrapper {
  property: string;
  inner: Schema;
}

/** `{ article: {...} }`: the one property (holding an object with properties) and its schema, or null. */
export function wrapperOf(schema: unknown): Wrapper | null {
  const shape = objectShape(schema);
  if (!shape) return null;
  const names = Object.keys(shape.properties);
  const only = names[0];
  if (names.length !== 1 || only === undefined) return null;
  const inner = shape.properties[only] as Schema;
  const innerShape = objectShape(inner);
  return innerShape && Object.keys(innerShape.properties).length > 0 ? { property: only, inner } : null;
}

const successSchemas = (op: OperationSpec): Schema[] =>
  successResponses(op).flatMap((r) => (r.schema === undefined ? [] : [r.schema]));

/** `floating_ips` -> `floating_ip`, `policies` -> `policy`, `boxes` -> `box`: the name of one item. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(s|x|ch|sh)es$/.test(name)) return name.slice(0, -2);
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

/**
 * The wrapper name when `op` (a create) takes a wrapped body and answers the same wrapper, or answers the item
 * bare (an object without that property, sharing one with the inside); or, for a plain body, when every answer
 * holds the item under the collection's singular name beside other properties (DigitalOcean's
 * `{"floating_ip": {...}, "links": {...}}`); else undefined.
 */
export function envelopeOfCreate(op: OperationSpec | undefined): string | undefined {
  if (!op) return undefined;
  const answers = successSchemas(op);
  if (answers.length === 0) return undefined;
  const request = wrapperOf(op.requestBody?.schema);
  if (!request) {
    const last = op.path.split('/').filter(Boolean).pop() ?? '';
    // The path's case need not be the property's: AWS's `/appbundles` answers `{"appBundle": {...}}`.
    const wanted = new Set([singular(last), last].filter(Boolean).map((n) => n.toLowerCase()));
    const names = Object.keys(objectShape(answers[0])?.properties ?? {});
    const named = names.find((n) => wanted.has(n.toLowerCase()) && answers.every((s) => wraps(s, n)));
    return named ?? onlyWrapperHolding(answers, op.requestBody?.schema);
  }
  if (answers.every((s) => wrapperOf(s)?.property === request.property)) return request.property;
  const inside = Object.keys(objectShape(request.inner)?.properties ?? {});
  const bare = answers.every((s) => {
    const names = Object.keys(objectShape(s)?.properties ?? {});
    return !names.includes(request.property) && inside.some((p) => names.includes(p));
  });
  return bare ? request.property : undefined;
}

/**
 * Mux's `POST /assets {"passthrough": …}` answered `{"data": {"id": …, "passthrough": …}}`: every answer is a
 * wrapper of one name (whatever it is) whose inside holds a field of the plain body the create takes.
 */
function onlyWrapperHolding(answers: readonly Schema[], request: unknown): string | undefined {
  const sent = Object.keys(objectShape(request)?.properties ?? {});
  const first = wrapperOf(answers[0]);
  if (!first || sent.length === 0) return undefined;
  if (!answers.every((s) => wrapperOf(s)?.property === first.property)) return undefined;
  const inside = objectShape(first.inner)?.properties ?? {};
  return sent.some((p) => p in inside) ? first.property : undefined;
}

/** The object `schema` holds under `envelope` (beside other properties or alone), or undefined. */
function wrapped(schema: unknown, envelope: string | undefined): Schema | undefined {
  if (envelope === undefined) return undefined;
  const inner = objectShape(schema)?.properties[envelope] as Schema | undefined;
  const shape = inner ? objectShape(inner) : null;
  return shape && Object.keys(shape.properties).length > 0 ? inner : undefined;
}

/** The schema inside `schema` when it is the resource's wrapper, else `schema` itself. */
export function innerSchema(schema: Schema | undefined, envelope: string | undefined): Schema | undefined {
  return wrapped(schema, envelope) ?? schema;
}

/** Does `schema` wrap its item under `envelope`? */
export const wraps = (schema: unknown, envelope: string | undefined): boolean =>
  wrapped(schema, envelope) !== undefined;

/** The item inside a wrapped value (`{article: {...}}` -> `{...}`); an unwrapped value as it is. */
export function unwrap(value: unknown, envelope: string | undefined): unknown {
  return envelope && isRecord(value) && isRecord(value[envelope]) ? value[envelope] : value;
}

/** The item wrapped as `schema` says: `{[envelope]: item}` when it is the wrapper, else the item itself. */
export function wrapAs(schema: unknown, envelope: string | undefined, item: unknown): unknown {
  return wraps(schema, envelope) ? { [envelope as string]: item } : item;
}

/** `value` with its item (inside the envelope when wrapped) changed by `change`. */
export function mapItem(
  value: unknown,
  envelope: string | undefined,
  change: (item: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  if (envelope && isRecord(value) && isRecord(value[envelope]))
    return { ...value, [envelope]: change(value[envelope]) };
  return isRecord(value) ? change(value) : value;
}
