/**
 * The body of the mock's own errors, in the shape the document gives: the schema documented for that status on
 * the operation, else its `default`, else the error schema the document uses most. Fields are filled by
 * mapping (an integer `status`/`code` gets the status; `message`/`detail`/`title` the text; a string `code`/
 * `type`/`error` the machine code); other required fields are generated. With none documented: RFC 9457
 * problem details. Shapes are worked out once per schema, never per request.
 */
import type { CompiledSpec, OperationSpec, ResponseSpec } from './compile';
import { errorResponse, mostUsedErrorResponse } from './error-response';
import { objectShape, typesOf, type Schema } from './schema-shape';
import { validAnswer } from './conform';
import { sampleOf } from './sample';
import { statusText } from './status-text';
import { uuidFrom } from './random';
import { codeInForm, type CodeForm } from './error-code-form';
import { describedError } from './error-example';

export interface ErrorFields {
  code: string;
  message: string;
}

export interface RenderedError {
  contentType: string;
  body: unknown;
}

type Role =
  'status' | 'text' | 'title' | 'code' | 'code-uri' | 'fixed' | 'nested' | 'list' | 'id' | 'messages';
interface Field {
  name: string;
  role: Role;
  fixed?: unknown;
  /** `code`: the values the schema allows and a value its examples show (spec/error-code-form.ts). */
  form?: CodeForm;
  /** `nested`: the error sits one level down, as in `{ "error": { "code": …, "message": … } }`; `list`: the
   * error is the one item of a list, as in `{ "errors": [{ "code": …, "title": … }] }` (JSON:API). */
  inner?: Shape;
  /** `id`: the length a generated id may have, when the schema bounds it. */
  maxLength?: number;
}
interface Shape {
  contentType: string;
  /** The documented answer the shape was read from: a rendered body is made valid against it. */
  response?: ResponseSpec;
  /** undefined: the schema is not an object; the text is the whole body. */
  fields?: Field[];
}

const PROBLEM: Shape = {
  contentType: 'application/problem+json',
  fields: [
    { name: 'type', role: 'fixed', fixed: 'about:blank' },
    { name: 'title', role: 'title' },
    { name: 'status', role: 'status' },
    { name: 'detail', role: 'text' },
    { name: 'code', role: 'code' },
  ],
};

const TEXT_NAMES = ['message', 'detail', 'error_description', 'title', 'description', 'msg', 'reason'];
const CODE_NAMES = ['code', 'type', 'error', 'errorcode', 'error_code', 'errortype', 'kind'];
const STATUS_NAMES = ['status', 'statuscode', 'status_code', 'code', 'httpstatus', 'http_status'];

// §26.7: the required fields no mapping names are filled by what they mean, never with a `"string"` placeholder.
const isIdName = (n: string) => /(^id$|_id$|[a-z]Id$|^request_?id$|^trace_?id$)/i.test(n);
const isNameName = (n: string) => /^(name|error_?name|reason_?code|[a-z_]*code)$/i.test(n);
const isStringList = (prop: Schema) => {
  const items = (prop as { items?: unknown }).items;
  return typesOf(prop).includes('array') && typesOf(items as Schema).includes('string');
};

/** The role of a required property nothing else maps, by its name and type; undefined keeps the generated value. */
function meaningOf(name: string, prop: Schema): Role | undefined {
  const types = typesOf(prop);
  const isString = types.length === 0 || types.includes('string');
  const format = (prop as { format?: string }).format;
  if (isStringList(prop)) return 'messages';
  if (types.includes('array') && objectShape((prop as { items?: unknown }).items)) return 'list';
  if (isString && (format === 'uuid' || isIdName(name))) return 'id';
  if (isString && !format && isNameName(name) && !(prop as { enum?: unknown }).enum) return 'code';
  if (objectShape(prop) && !types.includes('array')) return 'nested';
  return undefined;
}

/** What the schema and the example at its place say of a code field's values. */
function formOf(prop: Schema, example: unknown): CodeForm {
  const p = prop as { enum?: unknown[]; const?: unknown; example?: unknown; examples?: unknown };
  const allowed = Array.isArray(p.enum) ? p.enum : p.const !== undefined ? [p.const] : undefined;
  const shown = Array.isArray(p.examples) ? (p.examples as unknown[])[0] : undefined;
  return { allowed, example: example ?? p.example ?? shown };
}

/** The value an example body holds under `name` (the first item of a list), for the shape one level down. */
const below = (example: unknown, name: string, list = false): unknown => {
  const v = example && typeof example === 'object' ? (example as Record<string, unknown>)[name] : undefined;
  return list && Array.isArray(v) ? (v as unknown[])[0] : v;
};

/**
 * Pure: how each property of an error schema is filled; `example` is the documented example of this level (a
 * code field takes its form from it).
 */
function shapeOf(schema: Schema, contentType: string, depth = 0, example?: unknown): Shape {
  const shape = objectShape(schema);
  if (!shape) return { contentType };
  const names = Object.keys(shape.properties);
  const lower = (n: string) => n.toLowerCase();
  const isInt = (n: string) => typesOf(shape.properties[n]).some((t) => t === 'integer' || t === 'number');
  const isString = (n: string) => {
    const types = typesOf(shape.properties[n]);
    return types.length === 0 || types.includes('string');
  };
  const statusName = names.find((n) => STATUS_NAMES.includes(lower(n)) && isInt(n));
  const textNames = TEXT_NAMES.map((t) => names.find((n) => lower(n) === t && isString(n))).filter(
    (n): n is string => n !== undefined,
  );
  const text = textNames[0];
  const codeName = names.find((n) => CODE_NAMES.includes(lower(n)) && isString(n) && n !== text);
  // Google's `{ code: 404, status: "NOT_FOUND" }`: a string status is the machine code in the document's form.
  const textStatus = names.find((n) => lower(n) === 'status' && n !== statusName && isString(n));
  // An envelope (`{ error: { code, message } }`): nothing to fill at the top, one object property that has.
  const envelope =
    statusName === undefined && text === undefined
      ? names.find((n) => {
          const inner = objectShape(shape.properties[n]);
          return inner !== null && Object.keys(inner.properties).some((p) => TEXT_NAMES.includes(lower(p)));
        })
      : undefined;
  const fields: Field[] = [];
  const generated = sampleOf(schema, { requiredOnly: true }) as Record<string, unknown> | null;
  // Nowhere required to put the message (`{ errors?: [{ field?, message? }] }`, every property optional): the
  // first optional list or object that can carry it does, never an empty `{}`.
  let carrier: string | undefined;
  if (text === undefined && envelope === undefined && depth < 3)
    carrier = names.find((n) => {
      if (shape.required.has(n)) return false;
      const role = meaningOf(n, shape.properties[n] as Schema);
      if (role === 'messages') return true;
      if (role !== 'list' && role !== 'nested') return false;
      const prop = shape.properties[n] as Schema & { items?: Schema };
      return carriesText(shapeOf(role === 'list' ? (prop.items as Schema) : prop, contentType, depth + 1));
    });
  for (const name of names) {
    const prop = shape.properties[name] as Schema & { format?: string };
    const form = formOf(prop, below(example, name));
    if (name === envelope)
      fields.push({
        name,
        role: 'nested',
        inner: shapeOf(shape.properties[name] as Schema, contentType, depth + 1, below(example, name)),
      });
    else if (name === statusName) fields.push({ name, role: 'status' });
    else if (name === text) fields.push({ name, role: 'text' });
    else if (name === codeName || name === textStatus) {
      const uri = (prop.format === 'uri' || prop.format === 'uri-reference') && form.example === undefined;
      // A string status beside the code (JSend's `success`/`fail`) keeps its own value when no value says the code.
      const strict = name === textStatus && name !== codeName;
      const fixed = strict ? (generated?.[name] ?? sampleOf(prop)) : undefined;
      fields.push({ name, role: uri ? 'code-uri' : 'code', form: { ...form, strict }, fixed });
    } else if (lower(name) === 'title' && isString(name)) fields.push({ name, role: 'title' });
    else if (shape.required.has(name) || name === carrier) {
      const role = meaningOf(name, prop);
      if (role === 'nested' && depth < 3)
        fields.push({ name, role, inner: shapeOf(prop, contentType, depth + 1, below(example, name)) });
      else if (role === 'list' && depth < 3) {
        const items = (prop as { items?: Schema }).items as Schema;
        fields.push({
          name,
          role,
          inner: shapeOf(items, contentType, depth + 1, below(example, name, true)),
        });
      } else if (role === 'code') fields.push({ name, role, form });
      else if (role === 'id' || role === 'messages')
        fields.push({ name, role, maxLength: (prop as { maxLength?: number }).maxLength });
      else fields.push({ name, role: 'fixed', fixed: generated?.[name] ?? sampleOf(prop) });
    }
  }
  return { contentType, fields };
}

/** Does the shape put the message somewhere (at its top or below)? */
const carriesText = (shape: Shape): boolean =>
  (shape.fields ?? []).some(
    (f) => f.role === 'text' || f.role === 'messages' || (f.inner !== undefined && carriesText(f.inner)),
  );

/** Draws an error's own id (`debug_id`) of at most `maxLength` characters. */
type NewId = (maxLength: number | undefined) => string;

function render(shape: Shape, status: number, error: ErrorFields, id: NewId): unknown {
  if (!shape.fields) return error.message;
  const body: Record<string, unknown> = {};
  for (const f of shape.fields) {
    if (f.role === 'status') body[f.name] = status;
    else if (f.role === 'text') body[f.name] = error.message;
    else if (f.role === 'title') body[f.name] = statusText(status);
    else if (f.role === 'code') body[f.name] = codeInForm(error.code, status, f.form ?? {}) ?? f.fixed;
    else if (f.role === 'code-uri') body[f.name] = `urn:mock:error:${error.code}`;
    else if (f.role === 'nested' && f.inner) body[f.name] = render(f.inner, status, error, id);
    else if (f.role === 'list' && f.inner) body[f.name] = [render(f.inner, status, error, id)];
    else if (f.role === 'messages') body[f.name] = [error.message];
    else if (f.role === 'id') body[f.name] = id(f.maxLength);
    else body[f.name] = f.fixed;
  }
  return body;
}

/** A fresh id for each error (a `debug_id` names one failure); hex when the schema allows fewer characters. */
function newId(maxLength: number | undefined, random?: () => number): string {
  const id = random ? uuidFrom(random) : globalThis.crypto.randomUUID();
  return maxLength !== undefined && maxLength < id.length ? id.replace(/-/g, '').slice(0, maxLength) : id;
}

/** The error body, valid against its documented schema (a required field of a list's items filled). */
function rendered(shape: Shape, status: number, error: ErrorFields, id: NewId): unknown {
  const body = render(shape, status, error, id);
  const r = shape.response;
  return r ? validAnswer(body, r.schema as Schema | undefined, r.validateBody) : body;
}

/** No response documents an error body: the one the description shows (spec/error-example.ts), else RFC 9457. */
function describedShape(spec: CompiledSpec): Shape {
  const described = describedError(spec.document);
  return described ? shapeOf(described.schema, 'application/json', 0, described.example) : PROBLEM;
}

const hasId = (shape: Shape): boolean =>
  (shape.fields ?? []).some((f) => f.role === 'id' || (f.inner !== undefined && hasId(f.inner)));

/** Render the mock's own errors in the document's shapes. */
export interface ErrorShaper {
  render(operation: OperationSpec | undefined, status: number, error: ErrorFields): RenderedError;
  /** The same, serialised as UTF-8 JSON; repeated errors (a 401, a 404 of one path) reuse the bytes. */
  renderBytes(
    operation: OperationSpec | undefined,
    status: number,
    error: ErrorFields,
  ): { contentType: string; body: Uint8Array };
}

/** Serialised errors kept per shape: at most this many, each of a message up to MESSAGE_MAX characters. */
const CACHED_ERRORS = 256;
const MESSAGE_MAX = 256;
const utf8 = new TextEncoder();

/** Work out the document's error shapes once; `random` draws an error's own id (WebCrypto's when absent). */
export function createErrorShaper(spec: CompiledSpec, random?: () => number): ErrorShaper {
  const id: NewId = (maxLength) => newId(maxLength, random);
  const most = mostUsedErrorResponse(spec);
  const shapes = new Map<ResponseSpec, Shape>();
  const shapeFor = (r: ResponseSpec): Shape => {
    let s = shapes.get(r);
    if (!s) {
      s = { ...shapeOf(r.schema as Schema, r.contentType as string, 0, r.example), response: r };
      shapes.set(r, s);
    }
    return s;
  };
  const fallback = most ? shapeFor(most) : describedShape(spec);
  const shapeOfError = (operation: OperationSpec | undefined, status: number): Shape => {
    // The status's own entry, its range (`4XX`), then `default`: the first that documents a body.
    const responses = operation?.responses;
    const documented = responses
      ? (errorResponse(responses.get(String(status))) ??
        errorResponse(responses.get(`${String(status).charAt(0)}XX`)) ??
        errorResponse(responses.get('default')))
      : undefined;
    return documented ? shapeFor(documented) : fallback;
  };
  const serialised = new Map<Shape, Map<string, Uint8Array>>();
  return {
    render(operation, status, error) {
      const shape = shapeOfError(operation, status);
      return { contentType: shape.contentType, body: rendered(shape, status, error, id) };
    },
    renderBytes(operation, status, error) {
      const shape = shapeOfError(operation, status);
      const text = () => JSON.stringify(rendered(shape, status, error, id));
      // A body with a generated id is never reused: each failure has its own id.
      if (error.message.length > MESSAGE_MAX || hasId(shape))
        return { contentType: shape.contentType, body: utf8.encode(text()) };
      let cache = serialised.get(shape);
      if (!cache) serialised.set(shape, (cache = new Map()));
      const key = `${status} ${error.code} ${error.message}`;
      let body = cache.get(key);
      if (!body) {
        if (cache.size >= CACHED_ERRORS) cache.clear();
        cache.set(key, (body = utf8.encode(text())));
      }
      return { contentType: shape.contentType, body };
    },
  };
}
