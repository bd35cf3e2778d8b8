/**
 * Pure: an `application/x-www-form-urlencoded` body decoded into the object its schema describes, the same for
 * the mock, the proxy's judge and the runner (docs/requests.md).
 * - Bracketed names nest (`metadata[plan]=gold`, `items[0][price]=p_1`, `a[b][c]=d`), `expand[]=x` appends,
 *   a repeated name is a list: the convention of Stripe-style, Rails and PHP clients, and OpenAPI's
 *   `style: deepObject`. A dotted name (`Tags.member.1.Key`) nests the same way when its first part, not the
 *   whole name, is a property of the schema.
 * - Per the operation's `encoding` (OpenAPI 3 §4.8.15): `style: form, explode: false` splits `a=1,2`;
 *   `spaceDelimited`/`pipeDelimited` split on ` `/`|`; an encoding `contentType` of JSON reads the value as JSON.
 * - Each value as its schema types it: numbers, booleans, an array of one from a single value, indices as arrays.
 * - Bounded: the body's size, the number of fields and the depth of a name; past them, a problem (a 400).
 *   `__proto__` and `constructor` are data like any other name (own properties, never the prototype).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { isObject } from '../json';
import { arrayItems, objectShape, typesOf, type Schema } from '../schema-shape';

/** One property's entry of the media type's `encoding` map. */
export type FormEncoding = Pick<OpenAPIV3_1.EncodingObject, 'style' | 'explode' | 'contentType'>;

export interface FormLimits {
  maxBytes: number;
  maxFields: number;
  maxDepth: number;
}

export const FORM_LIMITS: FormLimits = { maxBytes: 1_048_576, maxFields: 1000, maxDepth: 10 };

export type FormRead = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A name's path as it was sent, before the schema reads it: a leaf holds every value sent for it. */
type Node = { leaf: string[] } | { children: Map<string, Node> };

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

/** `a[b][]` -> ['a', 'b', '']; a name without brackets is one segment. Undefined when the brackets are broken. */
function segmentsOf(name: string): string[] | undefined {
  const open = name.indexOf('[');
  if (open <= 0) return [name];
  const out = [name.slice(0, open)];
  let at = open;
  while (at < name.length) {
    const close = name.indexOf(']', at);
    if (name[at] !== '[' || close < 0) return undefined;
    out.push(name.slice(at + 1, close));
    at = close + 1;
  }
  return out;
}

/** A dotted top-level name split where the schema names its first part (AWS query style `Tags.member.1.Key`). */
function dotted(segments: string[], properties: Readonly<Record<string, unknown>>): string[] {
  const first = segments[0] ?? '';
  const dot = first.indexOf('.');
  if (dot <= 0 || first in properties || !(first.slice(0, dot) in properties)) return segments;
  return [...first.split('.'), ...segments.slice(1)];
}

/** Put one value at `path` in the tree (a leaf and a branch at one name: the later one wins). */
function insert(root: Map<string, Node>, path: string[], value: string): void {
  let level = root;
  for (const [i, raw] of path.entries()) {
    // `a[]=x`: the next index of the list.
    const key = raw === '' && i > 0 ? String(level.size) : raw;
    const last = i === path.length - 1;
    const node = level.get(key);
    if (last) {
      if (node && 'leaf' in node) node.leaf.push(value);
      else level.set(key, { leaf: [value] });
      return;
    }
    if (node && 'children' in node) level = node.children;
    else {
      const children = new Map<string, Node>();
      level.set(key, { children });
      level = children;
    }
  }
}

/** The type names a schema allows, through `allOf`/`oneOf`/`anyOf`. */
function typesThrough(schema: Schema | undefined, depth = 0): string[] {
  if (!schema || depth > 8) return [];
  const own = typesOf(schema);
  if (own.length) return own;
  const s = schema as Record<string, unknown>;
  const parts = [s.allOf, s.oneOf, s.anyOf].flatMap((p) => (Array.isArray(p) ? p : []));
  return parts.flatMap((p) => (isObject(p) ? typesThrough(p as Schema, depth + 1) : []));
}

/** A scalar as its schema types it: `"5"` -> 5 where a number is wanted, `"true"` -> true where a boolean is. */
function scalar(schema: Schema | undefined, raw: string): unknown {
  const types = typesThrough(schema);
  const t = raw.trim();
  if ((types.includes('integer') || types.includes('number')) && t !== '' && !Number.isNaN(Number(t)))
    return Number(t);
  if (types.includes('boolean') && (t === 'true' || t === 'false')) return t === 'true';
  if (types.includes('null') && t === '' && !types.includes('string')) return null;
  return raw;
}

/** An own property, even one named `__proto__` (as JSON.parse makes it). */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

const INDEX = /^\d{1,6}$/;

/** The value of one node of the tree, read by `schema`. */
function valueOf(node: Node, schema: Schema | undefined): unknown {
  const items = schema ? arrayItems(schema) : null;
  if ('leaf' in node) {
    if (items) return node.leaf.map((v) => scalar(items, v));
    if (node.leaf.length > 1 && typesThrough(schema).length === 0)
      return node.leaf.map((v) => scalar(schema, v));
    // Rails and PHP: a name sent twice for one value keeps the last.
    return scalar(schema, node.leaf[node.leaf.length - 1] ?? '');
  }
  const keys = [...node.children.keys()];
  if (items || (!schema && keys.length > 0 && keys.every((k) => INDEX.test(k)))) {
    if (keys.every((k) => INDEX.test(k)))
      return keys
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => valueOf(node.children.get(k) as Node, items ?? undefined));
  }
  return objectOf(node.children, schema);
}

/** The object of a level of the tree, each property read by its schema. */
function objectOf(children: Map<string, Node>, schema: Schema | undefined): Record<string, unknown> {
  const shape = schema ? objectShape(schema) : null;
  const extra = isObject(shape?.additional) ? (shape?.additional as Schema) : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, child] of children) define(out, key, valueOf(child, shape?.properties[key] ?? extra));
  return out;
}

/** A top-level value written by its `encoding` (exploded forms and deepObject need nothing: the tree has them). */
function encoded(
  raw: string,
  encoding: FormEncoding | undefined,
  schema: unknown,
): string[] | { json: unknown } | undefined {
  if (!encoding) return undefined;
  const type = (encoding.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { json: JSON.parse(raw) as unknown };
    } catch {
      return undefined;
    }
  }
  // A delimited style splits an array; other values are taken whole.
  if (!arrayItems(schema)) return undefined;
  if (encoding.style === 'spaceDelimited') return raw.split(' ');
  if (encoding.style === 'pipeDelimited') return raw.split('|');
  if ((encoding.style ?? 'form') === 'form' && encoding.explode === false) return raw.split(',');
  return undefined;
}

/** Pure: the form body `text` as the object `schema` describes, read per `encoding`; or why it cannot be read. */
export function decodeForm(
  text: string,
  schema: Schema | undefined,
  encoding: Readonly<Record<string, FormEncoding>> = {},
  limits: FormLimits = FORM_LIMITS,
): FormRead {
  if (text.length > limits.maxBytes)
    return { ok: false, message: `form body is larger than ${limits.maxBytes} bytes` };
  const properties = (schema && objectShape(schema)?.properties) ?? {};
  const root = new Map<string, Node>();
  const json = new Map<string, unknown>();
  const parts = text.split('&', limits.maxFields + 1).filter((p) => p !== '');
  if (parts.length > limits.maxFields)
    return { ok: false, message: `form body has more than ${limits.maxFields} fields` };
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (name === undefined || value === undefined)
      return { ok: false, message: 'form body is not valid percent-encoding' };
    const segments = segmentsOf(name);
    const path = segments ? dotted(segments, properties) : [name];
    if (path.length > limits.maxDepth)
      return {
        ok: false,
        message: `form field ${name.slice(0, 100)} is nested deeper than ${limits.maxDepth}`,
      };
    const written = path.length === 1 ? encoded(value, encoding[name], properties[name]) : undefined;
    if (written && !Array.isArray(written)) json.set(name, written.json);
    else for (const v of written ?? [value]) insert(root, path, v);
  }
  const value = objectOf(root, schema);
  for (const [name, v] of json) define(value, name, v);
  return { ok: true, value };
}
