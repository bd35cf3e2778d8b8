/** Which PATCH operations take a JSON Patch (RFC 6902) rather than a merge patch: the mock and the runner agree. */
import type { OperationSpec } from './compile';
import { typesOf, type Schema } from './schema-shape';

const JSON_PATCH = 'application/json-patch+json';

const essence = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase();

/** The schema is an array of `{ op, path }`: a JSON Patch by shape, whatever its media type. */
function arrayOfOperations(schema: Schema | undefined): boolean {
  const items = (schema as { items?: Schema } | undefined)?.items;
  const props = (items as { properties?: Record<string, unknown> } | undefined)?.properties;
  return !!schema && typesOf(schema).includes('array') && !!props && 'op' in props && 'path' in props;
}

/** The PATCH takes a JSON Patch: its media type says so, or its schema is an array of `{ op, path }`. */
export function isJsonPatch(op: OperationSpec): boolean {
  const body = op.requestBody;
  if (!body) return false;
  if (body.mediaTypes.some((m) => essence(m) === JSON_PATCH)) return true;
  return arrayOfOperations(body.schema as Schema);
}

/**
 * Is this request's body a JSON Patch? Its Content-Type decides where it names one: `application/json-patch+json`
 * is; a merge patch (`application/merge-patch+json`, Kubernetes' `strategic-merge-patch+json`) or plain JSON is
 * not, unless the document's schema is itself an array of `{ op, path }`. Without a Content-Type, the document.
 */
export function sendsJsonPatch(op: OperationSpec, contentType: string | undefined): boolean {
  if (!contentType) return isJsonPatch(op);
  if (essence(contentType) === JSON_PATCH) return true;
  return arrayOfOperations(op.requestBody?.schema as Schema | undefined);
}

/**
 * A JSON Patch is an array of operations by its media type's own definition (RFC 6902 §3). Where the document's
 * schema for it describes no array (Kubernetes documents its patch bodies as `type: object` under every patch type),
 * the body is held to the media type, not to that schema: true for an array of `{ op, path }` sent as
 * `application/json-patch+json` to such a schema. The operations themselves are checked when applied.
 */
export function patchHeldToMediaType(
  contentType: string | undefined,
  schema: unknown,
  value: unknown,
): boolean {
  if (!contentType || essence(contentType) !== JSON_PATCH || !Array.isArray(value)) return false;
  const types = typesOf(schema as Schema);
  if (types.length === 0 || types.includes('array')) return false;
  return value.every(
    (o) =>
      typeof o === 'object' &&
      o !== null &&
      typeof (o as { op?: unknown }).op === 'string' &&
      typeof (o as { path?: unknown }).path === 'string',
  );
}
