/** Which PATCH operations take a JSON Patch (RFC 6902) rather than a merge patch: the mock and the runner agree. */
import type { OperationSpec } from './compile';
import { typesOf, type Schema } from './schema-shape';

/** The PATCH takes a JSON Patch: its media type says so, or its schema is an array of `{ op, path }`. */
export function isJsonPatch(op: OperationSpec): boolean {
  const body = op.requestBody;
  if (!body) return false;
  if (body.mediaTypes.some((m) => m.toLowerCase().startsWith('application/json-patch+json'))) return true;
  const items = (body.schema as { items?: Schema }).items;
  const props = (items as { properties?: Record<string, unknown> } | undefined)?.properties;
  return typesOf(body.schema as Schema).includes('array') && !!props && 'op' in props && 'path' in props;
}
