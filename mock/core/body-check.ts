/**
 * Request bodies, checked against each operation's own schema: compiled once per operation at start, then on
 * each request: size (413), media type (415), UTF-8, JSON or form decoding, the document's schema, readOnly
 * properties (the server's; 400), properties the schema does not name (400 unless allowed), and the mock's own
 * bounds for unpublished limits (settings keyed by schema and property). Messages come from ajv's structured
 * errors.
 */
import type { ValidateFunction } from 'ajv';
import { sharedAjv } from '../../spec/ajv';
import { formatAjvErrors, type CompiledSpec, type OperationSpec } from '../../spec/compile';
import type { Binding, ResourceModel } from '../../spec/resources';
import { innerSchema, wraps } from '../../spec/envelope';
import { patchHeldToMediaType } from '../../spec/json-patch';
import { objectShape, readOnlyProperties, type ObjectShape, type Schema } from '../../spec/schema-shape';
import { requestView } from '../../spec/schema-views';
import {
  bodyMediaProblem,
  decodeJsonBody,
  parseMediaType,
  unexpectedBodyProblem,
  type BodyRule,
  type Media,
} from '../../spec/http/request-body';
import type { RequestProblem } from '../../spec/http/request-rules';
import { decodeForm, type FormEncoding } from '../../spec/http/form-decode';
import { decodeMultipart, type UploadedFile } from '../../spec/http/multipart';
import { apiError, invalidEncoding, invalidRequest, payloadTooLarge, type ErrorReply } from './errors';
import type { ReadOnlyHandling, ValidationPolicy } from './settings';

/** A request body as the adapter read it: the bytes, or only the fact that it was over the limit. */
export interface BodyRead {
  bytes: Uint8Array;
  tooLarge: boolean;
}

export interface BodyCheck extends BodyRule {
  /** The operation's documented answers (the status a body problem takes: spec/http/request-rules.ts). */
  responses: ReadonlyMap<string, unknown>;
  validate: ValidateFunction;
  /** Properties the schema names; null when it names none or allows any others. */
  known: ReadonlySet<string> | null;
  /** Properties a client must not send (the server's). */
  readOnly: readonly string[];
  /** What a readOnly property in the body gets: 400 (`reject`) or dropped before anything else sees it. */
  readOnlyMode: ReadOnlyHandling;
  /** The mock's own bounds for this schema (from the settings), if any. */
  policy?: ValidateFunction;
  /** The body's schema and form `encoding`: a form body is decoded into the object they describe. */
  schema: Schema;
  formEncoding?: Readonly<Record<string, FormEncoding>>;
  /** The `multipart/form-data` media type's `encoding`: its fields are read as a form's (spec/http/multipart.ts). */
  multipartEncoding?: Readonly<Record<string, FormEncoding>>;
  /** A body wrapped in the resource's envelope (`{"article": {...}}`): the same checks on the item inside. */
  inner?: { property: string; readOnly: readonly string[]; known: ReadonlySet<string> | null };
}

/**
 * The component name of each schema a policy rule names, by its JSON text (a validated document may be a
 * dereferenced copy). Only those: a large document's hundreds of schemas are not written out for nothing.
 */
function schemaNames(spec: CompiledSpec, ruled: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const schemas = spec.document.components?.schemas ?? {};
  for (const name of ruled) {
    const schema = schemas[name];
    if (schema === undefined) continue;
    try {
      names.set(JSON.stringify(schema), name);
      // A body is checked against its request view (readOnly not required): that text names the schema too.
      names.set(JSON.stringify(requestView(schema)), name);
    } catch {
      // circular: cannot be keyed by text; it gets no policy
    }
  }
  return names;
}

/** Compile the body check of every operation that takes a body. */
export function compileBodyChecks(
  spec: CompiledSpec,
  model: ResourceModel,
  policy: ValidationPolicy,
): Map<string, BodyCheck> {
  const names = schemaNames(spec, Object.keys(policy.rules));
  const out = new Map<string, BodyCheck>();
  for (const op of spec.operations) {
    if (op.requestBody) out.set(op.operationId, compileOne(op, model, policy, names));
  }
  return out;
}

function compileOne(
  op: OperationSpec,
  model: ResourceModel,
  policy: ValidationPolicy,
  names: Map<string, string>,
): BodyCheck {
  const body = op.requestBody as NonNullable<OperationSpec['requestBody']>;
  const shape = objectShape(body.schema);
  const { readOnly, inner } = itemRules(body.schema, shape, model.byOperation.get(op.operationId), policy);
  // A name the schema requires is known even when `properties` does not define it (GitHub's
  // `required: [tags]` beside `properties: { docker }`): refusing it would make the body impossible to send.
  const known = shape ? knownOf(shape, policy) : null;
  let name: string | undefined;
  try {
    name = names.size > 0 ? names.get(JSON.stringify(body.schema)) : undefined;
  } catch {
    name = undefined;
  }
  const rules = name ? policy.rules[name] : undefined;
  return {
    kind: body.kind,
    mediaTypes: body.mediaTypes,
    required: body.required,
    responses: op.responses,
    validate: body.validate,
    known,
    readOnly,
    readOnlyMode: policy.readOnlyProperties ?? 'reject',
    policy: rules ? sharedAjv().compile({ type: 'object', properties: rules }) : undefined,
    schema: body.schema,
    ...(body.formEncoding ? { formEncoding: body.formEncoding } : {}),
    ...(body.multipartEncoding ? { multipartEncoding: body.multipartEncoding } : {}),
    inner,
  };
}

/** The readOnly names a body must not carry, checked inside the resource's envelope when it is wrapped. */
function itemRules(
  schema: Schema,
  shape: ObjectShape | null,
  binding: Binding | undefined,
  policy: ValidationPolicy,
): { readOnly: string[]; inner?: BodyCheck['inner'] } {
  const readOnly = new Set(shape ? readOnlyProperties(shape) : []);
  // A search's body is a filter, not an item: nothing in it is the server's.
  if (!binding || ['list', 'search', 'read', 'remove'].includes(binding.action))
    return { readOnly: [...readOnly] };
  const r = binding.resource;
  const envelope = wraps(schema, r.envelope) ? r.envelope : undefined;
  const innerShape = envelope ? objectShape(innerSchema(schema, envelope)) : null;
  const itemShape = envelope ? innerShape : shape;
  const itemReadOnly = innerShape ? new Set(readOnlyProperties(innerShape)) : readOnly;
  // The item's readOnly properties (an `id` in the answer that the create's schema does not name) are the
  // server's in every create, replace and patch; unless the request schema itself names one as writable.
  for (const p of r.readOnly) if (!itemShape?.properties[p]) itemReadOnly.add(p);
  // PUT on the collection names the item by the id in its body.
  if (binding.action === 'update' && r.idField) itemReadOnly.delete(r.idField);
  if (!envelope || !innerShape) return { readOnly: [...readOnly] };
  return {
    readOnly: [...readOnly],
    inner: { property: envelope, readOnly: [...itemReadOnly], known: knownOf(innerShape, policy) },
  };
}

/**
 * The names the body's item (inside its envelope when wrapped) describes or requires, whether or not the schema
 * lets others through; null when it is no object. What a merged patch carries beyond them is not the client's.
 */
export function namedByBody(check: BodyCheck): ReadonlySet<string> | null {
  let named = bodyNames.get(check);
  if (named === undefined) {
    const shape = objectShape(check.inner ? innerSchema(check.schema, check.inner.property) : check.schema);
    named = shape ? new Set([...Object.keys(shape.properties), ...shape.required]) : null;
    bodyNames.set(check, named);
  }
  return named;
}

/** Worked out on a body's first patch, not on each. */
const bodyNames = new WeakMap<BodyCheck, ReadonlySet<string> | null>();

/** The names an object may carry: null when its schema (or the policy) lets any others through. */
function knownOf(shape: ObjectShape, policy: ValidationPolicy): ReadonlySet<string> | null {
  // A bare `type: object` (a cluster API's patch body) names no member: it says nothing against any.
  const namesNone = Object.keys(shape.properties).length === 0 && shape.required.size === 0;
  const allowsOthers =
    namesNone || policy.allowUnknownFields || (shape.additional !== undefined && shape.additional !== false);
  return allowsOthers
    ? null
    : new Set([...Object.keys(shape.properties), ...shape.required, ...(shape.mentioned ?? [])]);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Content-Type values seen (most requests send one of a few): at most 64, each up to 128 characters. */
const mediaSeen = new Map<string, Media>();

/** The media type of a Content-Type header, parsed once per distinct value. */
function mediaOf(contentType: string | undefined): Media {
  const value = contentType ?? '';
  let media = mediaSeen.get(value);
  if (media) return media;
  media = parseMediaType(value);
  if (value.length <= 128) {
    if (mediaSeen.size >= 64) mediaSeen.clear();
    mediaSeen.set(value, media);
  }
  return media;
}

/** Pure: `application/json` or `application/*+json`, in UTF-8. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const m = mediaOf(contentType);
  return m.utf8 && m.json;
}

/** A body rule's problem (spec/http/request-body.ts) as the mock's error answer, with the status it decided. */
function refusal(problem: RequestProblem, notJson = false): ErrorReply {
  const code = notJson
    ? 'malformed_json'
    : problem.rule === 'request.media-type'
      ? 'unsupported_media_type'
      : 'invalid_request';
  return { ...apiError(code, problem.message), status: problem.status };
}

/** Check one body; the decoded value, or the error to answer with. */
export function checkBody(
  check: BodyCheck,
  body: BodyRead,
  contentType: string | undefined,
  maxBodyBytes: number,
): { value: unknown; files?: UploadedFile[] } | ErrorReply {
  if (body.tooLarge) return payloadTooLarge(maxBodyBytes);
  const empty = body.bytes.length === 0;
  // The media type and the body's presence: one decision for the mock and the judge.
  const reading = bodyMediaProblem(check, check.responses, contentType, mediaOf(contentType), empty);
  if (typeof reading !== 'string') return refusal(reading);
  // `opaque`: a documented media type the mock does not decode (a file upload, an archive): never stored.
  if (reading === 'none' || reading === 'opaque') return { value: undefined };
  if (reading === 'multipart') {
    const parts = decodeMultipart(body.bytes, contentType ?? '', check.schema, check.multipartEncoding);
    if (!parts.ok) return invalidRequest(parts.message);
    const checked = checkValue(check, parts.value);
    return 'value' in checked ? { ...checked, files: parts.files } : checked;
  }
  let text: string;
  try {
    text = utf8.decode(body.bytes);
  } catch {
    return invalidEncoding('request body is not valid UTF-8');
  }
  if (reading === 'form') {
    const form = decodeForm(text, check.schema, check.formEncoding);
    return form.ok ? checkValue(check, form.value) : invalidRequest(form.message);
  }
  const data = decodeJsonBody(check.responses, text);
  if (!('value' in data)) return refusal(data, true);
  if (patchHeldToMediaType(contentType, check.schema, data.value)) return { value: data.value };
  return checkValue(check, data.value);
}

/** A body sent to an operation that documents none: the 415 the shared rule decides, or undefined (none, or ignored). */
export function checkUnexpectedBody(
  body: BodyRead | undefined,
  contentType: string | undefined,
  policy: Pick<ValidationPolicy, 'unexpectedBody'>,
): ErrorReply | undefined {
  const empty = !body || (!body.tooLarge && body.bytes.length === 0);
  const problem = unexpectedBodyProblem(contentType, empty, { unexpectedBody: policy.unexpectedBody });
  return problem && refusal(problem);
}

/** The first of `names` that `data` carries as its own property. */
function readOnlySent(names: readonly string[], data: object): string | undefined {
  return names.find((p) => Object.prototype.hasOwnProperty.call(data, p));
}

/** A copy of `data` without `names` (`readOnlyProperties: ignore`: what the client sent there is dropped). */
function withoutNames(data: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !names.includes(k)));
}

/**
 * The schema, readOnly, unknown-property and policy checks of a decoded body (also for a merged patch); the value
 * to use is the one returned (readOnly properties dropped under `readOnlyProperties: ignore`).
 */
export function checkValue(check: BodyCheck, data: unknown): { value: unknown } | ErrorReply {
  if (!check.validate(data)) return invalidRequest(formatAjvErrors(check.validate.errors));
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { value: data };
  let body = data as Record<string, unknown>;
  const sentReadOnly = readOnlySent(check.readOnly, body);
  if (sentReadOnly && check.readOnlyMode === 'reject')
    return invalidRequest(`/${sentReadOnly} is assigned by the service and must not be sent (readOnly)`);
  if (sentReadOnly) body = withoutNames(body, check.readOnly);
  if (check.known) {
    for (const p of Object.keys(body)) if (!check.known.has(p)) return invalidRequest(`/${p} is not allowed`);
  }
  const inner = check.inner ? body[check.inner.property] : undefined;
  if (check.inner && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
    const at = `/${check.inner.property}`;
    let item = inner as Record<string, unknown>;
    const innerReadOnly = readOnlySent(check.inner.readOnly, item);
    if (innerReadOnly && check.readOnlyMode === 'reject')
      return invalidRequest(
        `${at}/${innerReadOnly} is assigned by the service and must not be sent (readOnly)`,
      );
    if (innerReadOnly) {
      item = withoutNames(item, check.inner.readOnly);
      body = { ...body, [check.inner.property]: item };
    }
    for (const p of Object.keys(item))
      if (check.inner.known && !check.inner.known.has(p)) return invalidRequest(`${at}/${p} is not allowed`);
  }
  if (check.policy && !check.policy(body)) return invalidRequest(formatAjvErrors(check.policy.errors));
  return { value: body };
}
