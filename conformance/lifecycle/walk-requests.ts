/**
 * The document walk's requests, as a client of the document writes them: a parameter's documented example or
 * default, else openapi-sampler's, else the runner's pattern-aware generator; a body likewise (a change tries the
 * generated one first, so that it differs from what was created). Each is checked against its validator.
 */
import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import { coerceParam, type OperationSpec, type ParamSpec } from '../../spec/compile';
import { mapItem } from '../../spec/envelope';
import { isObject } from '../../spec/json';
import type { Resource } from '../../spec/resources';
import type { Schema } from '../../spec/schema-shape';
import type { Outgoing } from '../send/client';
import { generateValid } from '../generate/values';
import { withQuerystring } from '../build/requests';
import { encodeBody, formBody } from '../generate/encode-body';

type Json = Record<string, unknown>;
const mediaBase = (type: string): string => type.split(';')[0]?.trim().toLowerCase() ?? '';

/** A value valid against a parameter's schema: its example or default, else the sampler, else generated. */
export function paramValue(p: ParamSpec, random: () => number): string {
  const s = p.schema as Schema & { default?: unknown; examples?: unknown[]; example?: unknown };
  const generated = generateValid(p.schema, random, 'walk');
  for (const c of [s.default, s.examples?.[0], s.example, safeSample(p.schema), generated]) {
    if (c === undefined || c === null) continue;
    const text = Array.isArray(c) ? c.join(',') : String(c);
    if (p.validate(coerceParam(p.schema, text))) return text;
  }
  return String(generated);
}

/**
 * A valid body: the documented example, else the sampler's, else one generated (every property). A change
 * (`change`: replace, patch, update) tries the generated one first, so that it differs from what was created.
 */
export function bodyFor(
  op: OperationSpec,
  random: () => number,
  resource?: Resource,
  change = false,
): unknown {
  const rb = op.requestBody;
  if (!rb) return undefined;
  const generated = generateValid(rb.schema, random, 'walk', { full: true });
  // A key the client names in the body (a repo's `/name`, `/metadata/name`): a drawn body first, so that two
  // creates of the walk never name the same item.
  const candidates =
    change || resource?.key
      ? [generated, safeSample(rb.schema, true), ...(change ? [] : [rb.example])]
      : [rb.example, safeSample(rb.schema, true), generated];
  // Leave out an id the client may send: the server assigns one, so walks never collide. An example that is the
  // answer's too (one file for both) carries the server's readOnly values: a client leaves them out.
  const idField = resource?.idField;
  const leaveOut = [
    ...(resource?.readOnly ?? []),
    ...(resource?.idSource === 'client' && idField ? [idField] : []),
  ];
  for (const c of candidates) {
    if (c === undefined) continue;
    const body = leaveOut.length
      ? mapItem(c, resource?.envelope, (item) => leaveOut.reduce<Json>((o, name) => omit(o, name), item))
      : c;
    if (rb.validate(body)) return body;
  }
  return generated;
}

/** Whether the operation documents its body as a form too (application/x-www-form-urlencoded). */
export const documentsForm = (op: OperationSpec): boolean =>
  op.requestBody?.mediaTypes.some((t) => mediaBase(t) === 'application/x-www-form-urlencoded') === true;

/** A body with no nested values (one a form can carry). */
export const isFlat = (body: unknown): body is Json =>
  isObject(body) && Object.values(body).every((v) => v === null || typeof v !== 'object');

/**
 * The request of one call under the runner's client: the path parameters filled, required query and header
 * parameters generated, the body as JSON where the operation documents JSON (else, or with `form`, as a form).
 */
export function walkRequest(
  op: OperationSpec,
  params: Record<string, string>,
  random: () => number,
  options: { body?: unknown; form?: boolean; anonymous?: boolean },
): Outgoing {
  // An OpenAPI 3.2 `in: querystring` parameter: the whole query string, valid by its schema.
  let path = withQuerystring(op, op.path);
  for (const [name, value] of Object.entries(params))
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  const query: Record<string, string> = {};
  for (const p of op.queryParams) if (p.required) query[p.name] = paramValue(p, random);
  // JSON first; any type the operation documents otherwise (a stream, a PDF) rather than a 406.
  const headers: Record<string, string> = { Accept: 'application/json, */*;q=0.1' };
  for (const p of op.headerParams) if (p.required) headers[p.name] = paramValue(p, random);
  let body: string | undefined;
  let unbuildable: string | undefined;
  if (options.body !== undefined && op.requestBody) {
    // As the operation documents its body (generate/encode-body.ts), or as a form where `form` asks for one.
    const encoded = options.form
      ? {
          contentType: 'application/x-www-form-urlencoded',
          body: formBody(asObject(options.body), op.requestBody.formEncoding),
        }
      : encodeBody(op, options.body, 'walk');
    if ('skip' in encoded) unbuildable = `${op.operationId}: ${encoded.skip}`;
    else {
      headers['Content-Type'] = encoded.contentType;
      body = encoded.body;
    }
  }
  return {
    method: op.method.toUpperCase(),
    path,
    query,
    headers,
    body,
    auth: options.anonymous ? { use: 'none' } : { use: 'key' },
    ...(unbuildable === undefined ? {} : { unbuildable }),
  };
}

function omit(o: Json, name: string): Json {
  const out = { ...o };
  delete out[name];
  return out;
}

function safeSample(schema: Schema, full = false): unknown {
  try {
    return sample(schema as JSONSchema7, {
      skipReadOnly: true,
      skipWriteOnly: false,
      skipNonRequired: !full,
      quiet: true,
    });
  } catch {
    return undefined;
  }
}

const asObject = (v: unknown): Json => (isObject(v) ? v : {});
