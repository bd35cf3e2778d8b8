/**
 * Pure: a body value written in the media type its operation documents, as a client of that document sends it:
 * JSON where a JSON type is documented, else `application/x-www-form-urlencoded`, else `multipart/form-data`
 * (each property a part; a file property, `format: binary` or `byte` or a `contentMediaType`, a small file with a
 * filename; the media type's `encoding` respected: a part's `contentType`, a form's `style` and `explode`).
 * Any other body (XML, a bare stream, text) is not built: the answer says why, and the request is not sent,
 * never sent as JSON in its place.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { isJsonMediaType, type OperationSpec } from '../../spec/load';
import { isObject } from '../../spec/json';
import { arrayItems, objectShape, typesOf, type Schema } from '../../spec/schema-shape';

export type EncodedBody = { contentType: string; body: string } | { skip: string };

type Encoding = Record<string, OpenAPIV3_1.EncodingObject>;

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const baseOf = (type: string): string => type.split(';')[0]?.trim().toLowerCase() ?? '';

/** The media type the runner writes `op`'s body in, or why it cannot (JSON first, then a form, then multipart). */
export function bodyMediaType(op: OperationSpec): { type: string } | { skip: string } {
  const types = op.requestBody?.mediaTypes ?? [];
  // A range (`*/*`, `application/*`) takes JSON too.
  const chosen =
    types.find(isJsonMediaType) ??
    types.find((t) => baseOf(t) === FORM) ??
    types.find((t) => baseOf(t) === MULTIPART) ??
    types.find((t) => /^(\*|application)\/\*$/.test(baseOf(t)));
  if (chosen) return { type: chosen };
  return {
    skip: `the body is ${types.join(', ') || 'of no media type'}; the runner builds JSON, form and multipart bodies only`,
  };
}

/**
 * `value` as `op` documents its body (an operation without one: JSON); `label` names the files and marks their
 * content (the run prefix, so that what a server stores is recognisable).
 */
export function encodeBody(op: OperationSpec, value: unknown, label = 'conformance'): EncodedBody {
  if (!op.requestBody) return { contentType: 'application/json', body: JSON.stringify(value) };
  const chosen = bodyMediaType(op);
  if ('skip' in chosen) return chosen;
  const { type } = chosen;
  if (isJsonMediaType(type) || type.includes('*'))
    return { contentType: type.includes('*') ? 'application/json' : type, body: JSON.stringify(value) };
  if (!isObject(value)) return { skip: `a ${baseOf(type)} body is an object; the value is not one` };
  if (baseOf(type) === FORM) return { contentType: type, body: formBody(value, op.requestBody.formEncoding) };
  return multipartBody(op.requestBody.schema, value, op.requestBody.multipartEncoding ?? {}, label);
}

const scalar = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * A form body: a scalar as is, an array by its `style` (form, exploded by default: `a=1&a=2`; `explode: false`:
 * `a=1,2`; space- and pipe-delimited), an object as `deepObject` brackets, or as JSON where its part's
 * `contentType` is JSON: the forms spec/http/form-decode.ts reads.
 */
export function formBody(value: Record<string, unknown>, encoding: Encoding = {}): string {
  const form = new URLSearchParams();
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const e = encoding[name] ?? {};
    if (e.contentType && isJsonMediaType(e.contentType)) form.append(name, JSON.stringify(v));
    else if (Array.isArray(v)) {
      const joiner = { spaceDelimited: ' ', pipeDelimited: '|' }[e.style ?? ''];
      if (joiner !== undefined || e.explode === false) form.append(name, v.map(scalar).join(joiner ?? ','));
      else for (const item of v) form.append(name, scalar(item));
    } else if (isObject(v) && e.style !== 'form')
      for (const [k, inner] of Object.entries(v)) form.append(`${name}[${k}]`, scalar(inner));
    else form.append(name, scalar(v));
  }
  return form.toString();
}

/** Whether a property's schema is a file (OpenAPI 3.0's `format: binary|byte`, 3.1's content keywords). */
export function isFileSchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const s = schema as Record<string, unknown>;
  if (s.contentMediaType !== undefined || s.contentEncoding !== undefined) return true;
  return typesOf(schema as Schema).includes('string') && (s.format === 'binary' || s.format === 'byte');
}

/** The first concrete type of an encoding's `contentType` list (`image/png, image/jpeg`), if any. */
const partType = (e: OpenAPIV3_1.EncodingObject | undefined): string | undefined =>
  e?.contentType
    ?.split(',')
    .map((t) => t.trim())
    .find((t) => t !== '' && !t.includes('*'));

interface Part {
  name: string;
  type?: string;
  filename?: string;
  content: string;
}

/** The parts of one property: a file, each item of an array (OpenAPI: one part per item), JSON for an object. */
function partsOf(
  name: string,
  schema: Schema | undefined,
  v: unknown,
  e: Encoding[string] | undefined,
  label: string,
): Part[] {
  const items = arrayItems(schema);
  if (isFileSchema(schema) || (items && isFileSchema(items))) {
    const s = ((items && isFileSchema(items) ? items : schema) ?? {}) as Record<string, unknown>;
    const text = `${label} ${name}\n`;
    const type = partType(e) ?? (typeof s.contentMediaType === 'string' ? s.contentMediaType : 'text/plain');
    const content =
      s.format === 'byte' || s.contentEncoding === 'base64' ? Buffer.from(text).toString('base64') : text;
    const count = items && Array.isArray(v) && v.length > 1 ? 2 : 1;
    return Array.from({ length: count }, (_, i) => ({
      name,
      type,
      filename: `${label}-${name}-${i + 1}.txt`,
      content,
    }));
  }
  if (Array.isArray(v) && !(isObject(items) && objectShape(items)))
    return v.map((item) => ({ name, type: partType(e), content: scalar(item) }));
  if (isObject(v) || Array.isArray(v))
    return [{ name, type: partType(e) ?? 'application/json', content: JSON.stringify(v) }];
  return [{ name, type: partType(e), content: String(v) }];
}

/** A multipart/form-data body of `value`; every file property of the schema gets a small file. */
function multipartBody(
  schema: Schema,
  value: Record<string, unknown>,
  encoding: Encoding,
  label: string,
): EncodedBody {
  const properties = objectShape(schema)?.properties ?? {};
  const isFile = (n: string) => isFileSchema(properties[n]) || isFileSchema(arrayItems(properties[n]));
  // Every file property gets its file, given or not: a generated string is no file's content.
  const names = [...new Set([...Object.keys(value), ...Object.keys(properties).filter(isFile)])].filter(
    (n) => value[n] !== undefined || isFile(n),
  );
  const boundary = `conformance-${label.replace(/[^A-Za-z0-9]/g, '').slice(-24)}-boundary`;
  const lines: string[] = [];
  for (const name of names) {
    for (const part of partsOf(name, properties[name], value[name], encoding[name], label)) {
      const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
      lines.push(`--${boundary}`, `Content-Disposition: form-data; name="${part.name}"${filename}`);
      if (part.type) lines.push(`Content-Type: ${part.type}`);
      lines.push('', part.content);
    }
  }
  lines.push(`--${boundary}--`, '');
  return { contentType: `${MULTIPART}; boundary=${boundary}`, body: lines.join('\r\n') };
}
