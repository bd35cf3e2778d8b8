/**
 * Pure: the value an Example Object gives. OpenAPI 3.2 adds `dataValue` (the value as data, before it is
 * serialized) beside `value`, and `serializedValue` (the text as sent); the tools answer and send data, so
 * `dataValue` is read first, then `value`. A `serializedValue` alone is JSON text for a JSON media type.
 */
import { isObject } from './json';

/** The data an Example Object holds, or undefined when it holds none the tools can use. */
export function exampleValue(example: unknown): unknown {
  if (!isObject(example)) return undefined;
  if (example.dataValue !== undefined) return example.dataValue;
  if (example.value !== undefined) return example.value;
  if (typeof example.serializedValue !== 'string') return undefined;
  try {
    return JSON.parse(example.serializedValue) as unknown;
  } catch {
    return undefined;
  }
}
