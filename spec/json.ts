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
