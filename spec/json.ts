/** Small facts about JSON values, one home each (issue 29: `isObject` was written nine times). */

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
