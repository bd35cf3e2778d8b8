/**
 * Pure: an OpenAPI 3.2 `in: querystring` parameter read from, and written to, the raw query string (without
 * `?`). OAS 3.2 §4.8.12.2: the whole query string is one value, serialized as its `content` media type says:
 * `application/x-www-form-urlencoded` is name=value pairs (read into an object, each value as its property's
 * schema types it, a repeated name as an array); a JSON media type is the JSON text, percent-encoded; anything
 * else is the percent-decoded text. The mock, the judge and the runner read it here alike.
 */
import { coerceParam, type QuerystringSpec } from '../compile';
import type { OpenAPIV3_1 } from 'openapi-types';
import { isObject } from '../json';

export type QuerystringRead = { ok: true; value: unknown } | { ok: false; message: string };

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The property schema of `name` in an object schema, or undefined. */
function propertySchema(
  schema: OpenAPIV3_1.SchemaObject,
  name: string,
): OpenAPIV3_1.SchemaObject | undefined {
  const properties = schema.properties as Record<string, unknown> | undefined;
  const own = properties?.[name];
  if (isObject(own)) return own as OpenAPIV3_1.SchemaObject;
  return isObject(schema.additionalProperties)
    ? (schema.additionalProperties as OpenAPIV3_1.SchemaObject)
    : undefined;
}

/** One form value as its property's schema types it (an array's items each, a repeated name kept as a list). */
function formValue(schema: OpenAPIV3_1.SchemaObject | undefined, values: string[]): unknown {
  if (!schema) return values.length === 1 ? values[0] : values;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) {
    const items = (schema as { items?: unknown }).items;
    const itemSchema = isObject(items) ? (items as OpenAPIV3_1.SchemaObject) : {};
    return values.map((v) => coerceParam(itemSchema, v));
  }
  return values.length === 1 ? coerceParam(schema, values[0] ?? '') : values;
}

/** `raw` (the query string as sent, without `?`) as the value the parameter's schema judges, or why it is none. */
export function readQuerystring(spec: QuerystringSpec, raw: string): QuerystringRead {
  const what = `querystring parameter ${spec.name}`;
  if (spec.kind === 'form') {
    const pairs = new Map<string, string[]>();
    for (const part of raw.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = decode((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      const value = decode((eq < 0 ? '' : part.slice(eq + 1)).replace(/\+/g, ' '));
      if (name === undefined || value === undefined)
        return { ok: false, message: `${what} is not valid percent-encoding` };
      pairs.set(name, [...(pairs.get(name) ?? []), value]);
    }
    const value: Record<string, unknown> = {};
    for (const [name, values] of pairs) value[name] = formValue(propertySchema(spec.schema, name), values);
    return { ok: true, value };
  }
  // RFC 3986 percent-encoding, as 3.2 says for any other media type: `+` is itself here, not a space.
  const text = decode(raw);
  if (text === undefined) return { ok: false, message: `${what} is not valid percent-encoding` };
  if (spec.kind === 'text') return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: `${what} must be JSON (${spec.mediaType}), percent-encoded` };
  }
}

const encode = (text: string): string => encodeURIComponent(text);

/** `value` as the query string (without `?`) the parameter's media type makes of it: for clients and the runner. */
export function writeQuerystring(spec: QuerystringSpec, value: unknown): string {
  if (spec.kind === 'json') return encode(JSON.stringify(value));
  if (spec.kind === 'text') return encode(typeof value === 'string' ? value : JSON.stringify(value));
  if (!isObject(value)) return '';
  const parts: string[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v])
      parts.push(`${encode(name)}=${encode(typeof one === 'object' ? JSON.stringify(one) : String(one))}`);
  }
  return parts.join('&');
}
