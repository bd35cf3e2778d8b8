/**
 * Values generated from a schema where the document gives no example: openapi-sampler (a well-kept sampler that
 * honours formats, enums, bounds and allOf) is deterministic, so answers are stable from run to run.
 */
import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import type { Schema } from './schema-shape';

/** A value valid against `schema` as far as the sampler can tell; `null` only when the schema allows nothing else. */
export function sampleOf(schema: Schema | undefined, options: { requiredOnly?: boolean } = {}): unknown {
  if (!schema) return null;
  try {
    return sample(schema as JSONSchema7, {
      skipReadOnly: false,
      skipWriteOnly: true,
      skipNonRequired: options.requiredOnly === true,
      quiet: true,
      maxSampleDepth: 6,
    });
  } catch {
    return null;
  }
}

const stripped = new WeakMap<object, unknown>();

/** A copy of `schema` without `example`/`examples` anywhere (shared and recursive parts stay so). */
export function withoutExamples<T>(schema: T): T {
  // Under `properties` (and the like) the keys are names: a property called `example` stays.
  const NAMES = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
  const copy = (node: unknown, names: boolean): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    const done = names ? undefined : stripped.get(node);
    if (done !== undefined) return done;
    const out: Record<string, unknown> | unknown[] = Array.isArray(node) ? [] : {};
    if (!names) stripped.set(node, out);
    for (const [k, v] of Object.entries(node)) {
      if (!names && !Array.isArray(node) && (k === 'example' || k === 'examples')) continue;
      (out as Record<string, unknown>)[k] = copy(v, !names && NAMES.has(k));
    }
    return out;
  };
  return copy(schema, false) as T;
}
