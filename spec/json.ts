/** Small facts about JSON values, one home each (issue 29: `isObject` was written nine times). */

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON container: an object or an array, not null. Tree walkers (a `$ref` resolver, a pointer reader) step
 * into both alike, an array's members by their index as a key, hence the record type.
 */
export const isObjectOrArray = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null;

/** Each schema object's JSON text, made once: a large document compares hundreds of schemas pairwise. */
const texts = new WeakMap<object, string | null>();

function textOf(v: unknown): string | null {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? null;
  let text = texts.get(v);
  if (text === undefined) {
    try {
      text = JSON.stringify(v);
    } catch {
      text = null; // circular: only the same object is the same
    }
    texts.set(v, text);
  }
  return text;
}

/**
 * Two values written alike (the same object, or the same JSON text). Read-only: a value compared is not changed
 * afterwards (a document's schemas, once loaded), as its text is remembered.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = textOf(a);
  return x !== null && x === textOf(b);
}
