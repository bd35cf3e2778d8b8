/**
 * Pure: which stored items an OpenAPI 3.2 QUERY on a collection answers (the `search` action, issue 33). The
 * request body is the filter: each of its top-level fields that names a property of the item must match the
 * item's value (equal, or one of the values of a list); fields that name no property (`limit`, `sort`, `q`) and
 * nested values do not narrow. No body, or one that is not an object: every item.
 */
import type { Resource } from '../../spec/resources';
import { arrayItems, objectShape, typesOf } from '../../spec/schema-shape';
import type { OperationSpec } from '../../spec/compile';
import { isObject } from '../../spec/json';
import type { JsonObject } from './stores/types';

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v);

/** The resource as a search answers it: a plain array when its answer is one, else in the list's envelope; unpaged. */
export function searchView(r: Resource, op: OperationSpec, status: number): Resource {
  const schema = op.responses.get(String(status))?.schema;
  return { ...r, listEnvelope: arrayItems(schema) ? undefined : r.listEnvelope, paging: undefined };
}

/** The test an item passes to be answered by a search with `filter` as its body. */
export function searchFilter(filter: unknown, r: Resource): (item: JsonObject) => boolean {
  if (!isObject(filter)) return () => true;
  const properties = objectShape(r.itemSchema)?.properties ?? {};
  const wanted: Array<[string, Scalar[]]> = [];
  for (const [name, value] of Object.entries(filter)) {
    if (!Object.hasOwn(properties, name)) continue;
    const values = Array.isArray(value) ? value.filter(isScalar) : isScalar(value) ? [value] : [];
    if (values.length > 0) wanted.push([name, values]);
  }
  return (item) =>
    wanted.every(([name, values]) => {
      const have = item[name];
      return isScalar(have) && values.some((v) => v === have || String(v) === String(have));
    });
}

/**
 * The test an item passes to be listed by a `GET` whose query parameters name its properties (`?state=closed`,
 * `?customer=cus_1`): equal to one of the values sent. A parameter that names no scalar property (`sort`,
 * `labels`), or sends a value outside the property's enum (`state=all`), does not narrow; an item without the
 * property is not listed by a filter on it. Undefined where nothing narrows (the list as stored).
 */
export function queryFilter(
  op: OperationSpec,
  r: Resource,
  query: Readonly<Record<string, string[]>>,
): ((item: JsonObject) => boolean) | undefined {
  let wanted: Array<[string, string[]]> | undefined;
  for (const p of op.queryParams) {
    const sent = query[p.name];
    if (!sent?.length) continue;
    const field = objectShape(r.itemSchema)?.properties[p.name] as
      { type?: unknown; enum?: unknown[] } | undefined;
    if (!field || !isScalarSchema(field)) continue;
    const values = typesOf(p.schema).includes('array') ? sent.flatMap((v) => v.split(',')) : sent;
    if (field.enum && !values.every((v) => field.enum?.some((e) => String(e) === v))) continue;
    (wanted ??= []).push([p.name, values]);
  }
  if (!wanted) return undefined;
  const tests = wanted;
  return (item) =>
    tests.every(([name, values]) => {
      const have = item[name];
      return isScalar(have) && values.includes(String(have));
    });
}

/** A string, number, integer or boolean property (or an enum of such values). */
function isScalarSchema(s: { type?: unknown; enum?: unknown[] }): boolean {
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : [];
  if (types.length === 0) return Array.isArray(s.enum) && s.enum.every(isScalar);
  return types.every((t) => ['string', 'number', 'integer', 'boolean', 'null'].includes(String(t)));
}
