/** Pure: read, set and delete a value at a property path inside a JSON body, without touching the original. */

export type JsonPath = readonly string[];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at `path`, undefined when a step is missing. */
export function getAt(body: unknown, path: JsonPath): unknown {
  let at: unknown = body;
  for (const key of path) at = isObject(at) ? at[key] : undefined;
  return at;
}

/** A copy of `body` with `value` at `path` (deleted when `value` is the `DELETE` marker). */
export function setAt(body: unknown, path: JsonPath, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const copy: Record<string, unknown> = isObject(body) ? { ...body } : {};
  if (rest.length === 0 && value === DELETE) delete copy[head];
  else copy[head] = setAt(copy[head], rest, value);
  return copy;
}

/** Passed to setAt to delete the property at the path. */
export const DELETE: unique symbol = Symbol('delete');

/** `name`, `owner.email`: how a path reads in the evidence. */
export const pathLabel = (path: JsonPath): string => (path.length === 0 ? 'the body' : path.join('.'));

export { isObject };
