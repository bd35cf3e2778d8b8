/**
 * The body of a callback or webhook (issue 33), one builder for both: the document's example, else one generated
 * from the schema (spec/sample.ts); then the values the stored record (the answer) and the request name the same,
 * each taken only while the whole stays valid against the schema (ajv, compiled once per schema). Pure.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../spec/ajv';
import { isObject } from '../../spec/json';
import { sampleOf } from '../../spec/sample';
import type { Schema } from '../../spec/schema-shape';
import { exampleValue } from '../../spec/example-value';

/** What a runtime expression may read. */
export interface CallbackSource {
  method: string;
  /** The request URL as received (path and query). */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, string[]>>;
  params: Readonly<Record<string, string>>;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  responseHeaders: Readonly<Record<string, string | number>>;
}

const ajv = createAjv();
const validators = new WeakMap<object, ValidateFunction>();

/** The callback body schema's validator, compiled on its first use (once per schema). */
export function validatorOf(schema: Schema): ValidateFunction | undefined {
  if (!isObject(schema)) return undefined;
  let v = validators.get(schema);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch {
      return undefined;
    }
    validators.set(schema, v);
  }
  return v;
}

const propertiesOf = (schema: unknown): Record<string, unknown> | undefined => {
  const props = isObject(schema) ? schema.properties : undefined;
  return isObject(props) ? props : undefined;
};

/**
 * Pure: the paths (property names, at most two deep: `data`, `data.object`) where `schema` holds `wrapped`, the
 * very schema object (a dereferenced document keeps shared schemas shared), directly or as an `allOf` part.
 */
export function pathsTo(schema: unknown, wrapped: unknown, depth = 2): string[][] {
  const out: string[][] = [];
  const props = propertiesOf(schema);
  if (!props || depth === 0) return out;
  for (const [name, sub] of Object.entries(props)) {
    const parts = isObject(sub) && Array.isArray(sub.allOf) ? sub.allOf : [];
    if (sub === wrapped || parts.includes(wrapped)) out.push([name]);
    else for (const inner of pathsTo(sub, wrapped, depth - 1)) out.push([name, ...inner]);
  }
  return out;
}

/** `base` with same-named top-level values of `sources` put in wherever `valid` still holds. */
function fillSameNamed(
  base: Record<string, unknown>,
  names: readonly string[],
  sources: readonly unknown[],
  valid: (candidate: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  let body = { ...base };
  for (const name of names) {
    for (const from of sources) {
      if (!isObject(from) || from[name] === undefined) continue;
      const next = { ...body, [name]: from[name] };
      if (valid(next)) {
        body = next;
        break;
      }
    }
  }
  return body;
}

/** `root` with `value` at `path` (copies along the way). */
function setAt(
  root: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return root;
  const here = root[head];
  return { ...root, [head]: rest.length ? setAt(isObject(here) ? here : {}, rest, value) : value };
}

/**
 * Pure: the callback's body: its example (else, or when the example does not fit the schema, generated), with
 * same-named values of the record and request.
 * `wraps`: the schema of the stored record (a webhook's resource item); where the body's schema is it, or holds it one
 * or two levels down (`{ "type": …, "data": Pet }`), the record goes there as it is when that stays valid, else its
 * values are put in the same way.
 */
export function callbackBody(
  media: OpenAPIV3_1.MediaTypeObject | undefined,
  source: CallbackSource,
  wraps?: unknown,
): unknown {
  if (!media) return undefined;
  const schema = media.schema as Schema | undefined;
  const example: unknown = media.example ?? exampleValue(Object.values(media.examples ?? {})[0]);
  if (!schema) return example;
  const validate = validatorOf(schema);
  const valid = (candidate: unknown): boolean => !validate || validate(candidate);
  // An example its own schema refuses (documents have them) gives way to a generated body: the body is valid.
  const base = example !== undefined && valid(example) ? example : sampleOf(schema);
  if (!isObject(base)) return base;
  const props = propertiesOf(schema);
  let body = fillSameNamed(
    base,
    props ? Object.keys(props) : Object.keys(base),
    [source.responseBody, source.requestBody],
    valid,
  );
  if (wraps === undefined) return body;
  // The record itself where it fits (no generated value beside the stored ones), else its values in the sample.
  if (wraps === schema)
    return isObject(source.responseBody) && valid(source.responseBody) ? source.responseBody : body;
  for (const path of pathsTo(schema, wraps)) {
    const whole = setAt(body, path, source.responseBody);
    if (isObject(source.responseBody) && valid(whole)) {
      body = whole;
      continue;
    }
    let inner: unknown = body;
    for (const key of path) inner = isObject(inner) ? inner[key] : undefined;
    const start = isObject(inner) ? inner : {};
    const names = Object.keys(
      propertiesOf(wraps) ?? (isObject(source.responseBody) ? source.responseBody : {}),
    );
    const filled = fillSameNamed(start, names, [source.responseBody, source.requestBody], (c) =>
      valid(setAt(body, path, c)),
    );
    body = setAt(body, path, filled);
  }
  return body;
}
