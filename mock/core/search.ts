/**
 * Pure: which stored items an OpenAPI 3.2 QUERY on a collection answers (the `search` action, issue 33). The
 * request body is the filter: each of its top-level fields that names a property of the item must match the
 * item's value (equal, or one of the values of a list); fields that name no property (`limit`, `sort`, `q`) and
 * nested values do not narrow. No body, or one that is not an object: every item.
 */
import type { Resource } from '../../spec/resources';
import { arrayItems, objectShape } from '../../spec/schema-shape';
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
