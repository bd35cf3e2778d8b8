/**
 * Values generated from a schema where the document gives no example: openapi-sampler (a well-kept sampler that
 * honours formats, enums, bounds and allOf) is deterministic, so answers are stable from run to run.
 */
import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import type { Schema } from '../../spec/schema-shape';

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
