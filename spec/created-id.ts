/**
 * Where a create's answer says the new item's id, and reading it there: the one function the mock (its webhooks)
 * and the runner (its lifecycle rules, its document walk, its clean-up ledger) share. A create may answer the
 * whole item (`{"id": 7, …}`, in the resource's envelope or not), only the id in a wrapper (`{"widgetID": "…"}`),
 * or nothing but a `Location` header naming the item path.
 */
import type { OperationSpec } from './compile';
import { unwrap } from './envelope';
import { isObject } from './json';
import type { CreatedIdAt, Resource } from './resource-types';
import { arrayItems, objectShape, typesOf, type Schema } from './schema-shape';
import { successResponses } from './success';
import { recordKey, valueAt } from './resource-key';

/** What a create answered: its parsed JSON body and its headers (names in any case). */
export interface CreateAnswer {
  json?: unknown;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** RFC 6901: the value at a pointer (spec/resource-key.ts). */
export { valueAt } from './resource-key';

/** RFC 6901: a pointer to the top-level property `name`. */
export const pointerTo = (name: string): string => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

const headerOf = (answer: CreateAnswer, name: string): string | undefined => {
  for (const [k, v] of Object.entries(answer.headers ?? {}))
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
};

/** The last segment of a `Location` (absolute or relative, a query or fragment aside), decoded. */
function lastSegment(location: string | undefined): string | undefined {
  if (!location) return undefined;
  const path = location.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const asId = (v: unknown): string | number | undefined =>
  typeof v === 'string' || typeof v === 'number' ? v : undefined;

/**
 * The new item's id in a create's answer: where the resource says (`createdId`), else its id field in the
 * (unwrapped) body, else the `Location` header's last segment; undefined when the answer carries none.
 */
export function createdIdOf(resource: Resource, answer: CreateAnswer): string | number | undefined {
  const at = resource.createdId;
  if (at && 'pointer' in at) {
    const found = asId(valueAt(answer.json, at.pointer));
    if (found !== undefined) return found;
  }
  const item = unwrap(answer.json, resource.envelope);
  // A nested or composite key (`/metadata/name`; `/owner/login` + `/name`): read through its pointers.
  if (resource.key && isObject(item)) {
    const found = recordKey(resource, item);
    if (found !== undefined) return found;
  }
  if (resource.idField && isObject(item)) {
    const found = asId(item[resource.idField]);
    if (found !== undefined) return found;
  }
  const located = lastSegment(headerOf(answer, 'location'));
  if (located === undefined) return undefined;
  return resource.idType === 'integer' && /^\d+$/.test(located) ? Number(located) : located;
}

const scalar = (p: unknown): boolean =>
  !typesOf(p as Schema).some((t) => t === 'object' || t === 'array') && !objectShape(p) && !arrayItems(p);

/**
 * Pure: where a create answers the id, when not as the item's own `idField`: a scalar property of a small answer
 * named like the item path's parameter or like an id (`{"widgetID": "…"}`), else a documented `Location`
 * header, else (a create that documents no body) `Location`. Undefined: the id field of the answered item.
 */
export function createdIdAt(
  create: OperationSpec | undefined,
  answerItem: Schema | undefined,
  idField: string | undefined,
  itemParam: string | undefined,
): CreatedIdAt | undefined {
  if (!create) return undefined;
  const shape = objectShape(answerItem);
  if (shape && idField && idField in shape.properties) return undefined;
  if (shape) {
    const names = Object.keys(shape.properties).filter((n) => scalar(shape.properties[n]));
    const wanted = [itemParam, idField]
      .filter((n): n is string => n !== undefined)
      .map((n) => n.toLowerCase());
    const named =
      names.find((n) => wanted.includes(n.toLowerCase())) ??
      (names.length <= 3 ? names.find((n) => /(^|_|[a-z])(id|ID|Id)$/.test(n)) : undefined);
    if (named) return { pointer: pointerTo(named) };
  }
  const responses = successResponses(create);
  if (responses.some((r) => r.headers.some((h) => h.name.toLowerCase() === 'location')))
    return { header: 'location' };
  return responses.every((r) => !r.schema) ? { header: 'location' } : undefined;
}
