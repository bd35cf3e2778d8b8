/**
 * Pure helpers over dereferenced JSON Schemas (OpenAPI 3.1): the object shape a schema describes, through
 * `allOf`, so that the resource inference, the mock's body checks and the runner read one answer.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { isObject } from './json';

export type Schema = OpenAPIV3_1.SchemaObject;

export interface ObjectShape {
  /** Every property named by the schema or one of its `allOf` parts. */
  properties: Record<string, Schema>;
  required: Set<string>;
  /** `additionalProperties` as written: undefined when no part says anything. */
  additional: boolean | Schema | undefined;
  /** Properties only some branches of a oneOf/anyOf name: a value for them is not sure to be judged. */
  uncertain?: Set<string>;
  /**
   * Names only some branches of a oneOf/anyOf require (Vonage's `account_id`, required by its SMS report and
   * described by none): a body may carry them, so a check of unknown names must know them.
   */
  mentioned?: Set<string>;
}

/** The schema's type names, `type: [a, b]` included. */
export function typesOf(schema: Schema | undefined): string[] {
  const t = (schema as { type?: unknown } | undefined)?.type;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The object shape of `schema` (merging `allOf` parts), or null when it does not describe an object.
 * `oneOf`/`anyOf` are not merged: their properties are not certain.
 */
export function objectShape(schema: unknown, depth = 0): ObjectShape | null {
  if (!isObject(schema) || depth > 8) return null;
  const s = schema as Schema & Record<string, unknown>;
  const types = typesOf(s);
  const shape: ObjectShape = { properties: {}, required: new Set(), additional: undefined };
  let found = types.includes('object') || isObject(s.properties);
  if (isObject(s.properties)) Object.assign(shape.properties, s.properties);
  if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') shape.required.add(r);
  if (s.additionalProperties !== undefined) shape.additional = s.additionalProperties as boolean | Schema;
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    const inner = objectShape(part, depth + 1);
    if (!inner) continue;
    found = true;
    for (const [k, v] of Object.entries(inner.properties))
      shape.properties[k] = narrower(shape.properties[k], v);
    for (const r of inner.required) shape.required.add(r);
    if (inner.additional !== undefined && shape.additional === undefined) shape.additional = inner.additional;
    for (const u of inner.uncertain ?? []) (shape.uncertain ??= new Set()).add(u);
    for (const m of inner.mentioned ?? []) (shape.mentioned ??= new Set()).add(m);
  }
  // Branches that are all objects (a discriminated Cat or Dog): every property one of them names; required
  // only what all of them require.
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : [];
  const shapes = branches.map((b) => objectShape(b, depth + 1));
  if (shapes.length > 0 && shapes.every((x): x is ObjectShape => x !== null)) {
    found = true;
    for (const inner of shapes)
      for (const [k, v] of Object.entries(inner.properties)) {
        shape.properties[k] ??= v;
        if (!shapes.every((x) => k in x.properties) || inner.uncertain?.has(k))
          (shape.uncertain ??= new Set()).add(k);
      }
    for (const r of shapes[0]?.required ?? [])
      if (shapes.every((x) => x.required.has(r))) shape.required.add(r);
    for (const inner of shapes)
      for (const m of [...inner.required, ...(inner.mentioned ?? [])])
        if (!shape.required.has(m)) (shape.mentioned ??= new Set()).add(m);
  }
  if (types.length > 0 && !types.includes('object')) return null;
  return found ? shape : null;
}

/** Of two schemas of one property, the one that pins its values (`enum`, `const`); else the first. */
function narrower(first: Schema | undefined, next: Schema): Schema {
  if (first === undefined) return next;
  const pins = (x: Schema): boolean => 'enum' in x || 'const' in x;
  return !pins(first) && pins(next) ? next : first;
}

/** The items schema of an array schema (through `allOf`), or null when `schema` is not an array. */
export function arrayItems(schema: unknown): Schema | null {
  if (!isObject(schema)) return null;
  const s = schema as Record<string, unknown>;
  if (typesOf(s as Schema).includes('array') || (s.type === undefined && isObject(s.items))) {
    return isObject(s.items) ? (s.items as Schema) : {};
  }
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    const inner = arrayItems(part);
    if (inner) return inner;
  }
  return null;
}

/** Properties marked `readOnly: true` in the shape. */
export function readOnlyProperties(shape: ObjectShape): string[] {
  return Object.entries(shape.properties)
    .filter(([, p]) => (p as { readOnly?: unknown }).readOnly === true)
    .map(([k]) => k);
}
