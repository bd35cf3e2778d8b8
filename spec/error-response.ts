/**
 * Which response of a document is an error with a body, and the error response the document uses most: the
 * mock renders its own errors in that shape and the runner judges error bodies by it, so both read it here.
 */
import type { CompiledSpec, ResponseSpec } from './compile';

/** The response itself when it documents a body (a schema and a media type), else undefined. */
export const errorResponse = (r: ResponseSpec | undefined): ResponseSpec | undefined =>
  r?.schema && r.contentType ? r : undefined;

const mostUsed = new WeakMap<CompiledSpec, ResponseSpec | undefined>();

/** The error response the document uses most (4xx/5xx/default with a schema), compared by schema and media type. */
export function mostUsedErrorResponse(spec: CompiledSpec): ResponseSpec | undefined {
  if (mostUsed.has(spec)) return mostUsed.get(spec);
  const counts = new Map<string, { n: number; response: ResponseSpec }>();
  for (const op of spec.operations) {
    for (const [status, r] of op.responses) {
      if (!/^[45]|^default$/.test(status) || !errorResponse(r)) continue;
      let key: string;
      try {
        key = `${r.contentType} ${JSON.stringify(r.schema)}`;
      } catch {
        continue; // a circular schema: not an error shape anyone writes
      }
      const entry = counts.get(key) ?? { n: 0, response: r };
      entry.n++;
      counts.set(key, entry);
    }
  }
  let most: ResponseSpec | undefined;
  let best = 0;
  for (const { n, response } of counts.values()) if (n > best) [most, best] = [response, n];
  mostUsed.set(spec, most);
  return most;
}
