/** The request's query, decoded once: the identify and validate stages, the engine and the admin routes read it. */

/** Decoded query parameters (`a=1&a=2` -> { a: ['1', '2'] }). */
export function parseQuery(raw: string): Record<string, string[]> {
  // No prototype: a parameter named `constructor`, `toString` or `__proto__` is a parameter like any other.
  const out = Object.create(null) as Record<string, string[]>;
  if (!raw) return out;
  for (const [k, v] of new URLSearchParams(raw)) (out[k] ??= []).push(v);
  return out;
}
