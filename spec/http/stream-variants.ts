/**
 * Pure: the n-th generated item of a stream, another variant of the item schema at every level (the sampler
 * varies a value's top level only), and for server-sent events the fields a client acts on made sensible: a
 * distinct `id` per event (a client resumes from `Last-Event-ID`), and a `retry` a client can wait (3 s, as
 * browsers default to), where the item schema allows them. Each value is checked by the caller's validator.
 */
import type { ValidateFunction } from 'ajv';
import { isObject } from '../json';
import { sampleOf } from '../sample';
import { objectShape, type Schema } from '../schema-shape';

/** The reconnection delay streamed when the item schema allows it (ms; browsers wait about 3 s by default). */
export const SSE_RETRY_MS = 3000;

/** The n-th variant of a value of `schema`: enums cycle, numbers and strings step, objects vary per property. */
function variantOf(schema: Schema, n: number, depth: number): unknown {
  const s = schema as Schema & Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[n % s.enum.length];
  if (s.type === 'boolean') return n % 2 === 0;
  const shape = depth < 6 ? objectShape(schema) : null;
  const value = sampleOf(schema, { variant: n, skipExamples: n > 0 });
  if (!shape || !isObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const name of Object.keys(out)) {
    const property = shape.properties[name];
    if (property) out[name] = variantOf(property, n, depth + 1);
  }
  return out;
}

/** Keep `changed` when it still fits, else `before`: a variant never costs an item its validity. */
function ifValid(validate: ValidateFunction, before: unknown, changed: unknown): unknown {
  return validate(changed) ? changed : before;
}

/** The n-th generated item (from 0); `sse` sets a distinct `id` and a sensible `retry` where they fit. */
export function variantItem(
  itemSchema: Schema,
  validate: ValidateFunction,
  n: number,
  sse: boolean,
): unknown {
  const plain = sampleOf(itemSchema, { variant: n });
  let item = ifValid(validate, plain, variantOf(itemSchema, n, 0));
  if (!sse || !isObject(item)) return item;
  const shape = objectShape(itemSchema);
  if (shape?.properties.id || 'id' in item) item = ifValid(validate, item, { ...item, id: String(n + 1) });
  if (isObject(item) && (shape?.properties.retry || 'retry' in item))
    item = ifValid(validate, item, { ...item, retry: SSE_RETRY_MS });
  return item;
}
