/**
 * The JSON Schema keywords (2020-12 and draft 7) whose values are schemas, one table for every walker of schemas
 * (spec/schema-walk.ts, spec/schema-views.ts, spec/schema-compiler.ts).
 */

/** A keyword whose value is one schema. */
export const ONE_SCHEMA: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);

/** A keyword whose value is a list of schemas (`items` in draft 7's tuple form too). */
export const SCHEMA_LIST: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/** A keyword whose value maps names to schemas. */
export const SCHEMA_MAP: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
