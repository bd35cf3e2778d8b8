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
 * `labels`), or sends a value outside the property's enum or one that reads as every value (`state=all`), does
 * not narrow; an item without the property is not listed by a filter on it. A selector left out narrows by its
 * documented `default` where that is one of its enum's several values (GitHub's issues list `state`, `open` by
 * default), and only items that have the property. Undefined where nothing narrows (the list as stored).
 */
export function queryFilter(
  op: OperationSpec,
  r: Resource,
  query: Readonly<Record<string, string[]>>,
): ((item: JsonObject) => boolean) | undefined {
  let wanted: Array<[string, string[], boolean]> | undefined;
  for (const p of op.queryParams) {
    const sent = query[p.name];
    const byDefault = sent?.length ? undefined : selectorDefault(p.schema);
    if (!sent?.length && byDefault === undefined) continue;
    const field = objectShape(r.itemSchema)?.properties[p.name] as
      { type?: unknown; enum?: unknown[] } | undefined;
    if (!field || !isScalarSchema(field)) continue;
    const values =
      byDefault !== undefined
        ? [byDefault]
        : typesOf(p.schema).includes('array')
          ? (sent ?? []).flatMap((v) => v.split(','))
          : (sent ?? []);
    const known = (v: string) => field.enum?.some((e) => String(e) === v) ?? false;
    if (field.enum && !values.every(known)) continue;
    if (!field.enum && values.some((v) => EVERY.has(v.toLowerCase()))) continue;
    (wanted ??= []).push([p.name, values, byDefault !== undefined]);
  }
  if (!wanted) return undefined;
  const tests = wanted;
  return (item) =>
    tests.every(([name, values, byDefault]) => {
      const have = item[name];
      if (byDefault && have === undefined) return true;
      return isScalar(have) && values.includes(String(have));
    });
}

/** Values of a filter that mean "whatever it is". */
const EVERY = new Set(['all', 'any', '*']);

/** The default of a query parameter that selects one of several values (an enum of 2 or more), if any. */
function selectorDefault(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const { default: d, enum: e } = schema as { default?: unknown; enum?: unknown };
  if (!isScalar(d) || d === null || !Array.isArray(e) || e.length < 2) return undefined;
  const value = String(d);
  return EVERY.has(value.toLowerCase()) ? undefined : value;
}

/** A string, number, integer or boolean property (or an enum of such values). */
function isScalarSchema(s: { type?: unknown; enum?: unknown[] }): boolean {
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : [];
  if (types.length === 0) return Array.isArray(s.enum) && s.enum.every(isScalar);
  return types.every((t) => ['string', 'number', 'integer', 'boolean', 'null'].includes(String(t)));
}
