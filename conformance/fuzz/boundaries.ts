/**
 * Pure: a valid body -> bodies on both sides of each constraint of each of its top-level properties (lengths,
 * bounds and their exclusive forms, item counts, enums, formats, required, additionalProperties, null, JSON
 * types). Which side a body is on is not decided here: the document's own validator classifies every case.
 */
import { objectShape, type Schema } from '../../spec/schema-shape';
import { valuesFor } from '../generate/constraint-values';

/** One candidate body and what it probes (`name: minLength-1` and so on). */
export interface BoundaryCase {
  label: string;
  body: Record<string, unknown> | unknown[];
}

type Json = Record<string, unknown>;

/** The label of the case with one property the schema does not name. */
export const EXTRA = 'one property the schema does not name';

/** Every boundary case of `valid` against `schema` (an object schema, request view). */
export function boundaryCases(schema: Schema, valid: Json): BoundaryCase[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  const cases: BoundaryCase[] = [];
  for (const [name, prop] of Object.entries(shape.properties)) {
    if (typeof prop !== 'object' || prop === null || (prop as Json).readOnly === true) continue;
    for (const { label, value } of valuesFor(prop as Json, valid[name]))
      cases.push({ label: `${name}: ${label}`, body: { ...valid, [name]: value } });
    if (shape.required.has(name) && name in valid) {
      const without = { ...valid };
      delete without[name];
      cases.push({ label: `${name} missing (required)`, body: without });
    }
  }
  cases.push({ label: EXTRA, body: { ...valid, fuzzExtraProperty: 'x' } });
  // The body as a whole of the wrong type: a server that reads an array as its first element is caught.
  cases.push({ label: 'an array holding a valid body', body: [valid] });
  return cases;
}
