/** Pure: what a lifecycle step expects to see of its item, shared by the runner's lifecycle and the document walk. */
import { isObject } from '../../spec/json';
import { recordKey } from '../../spec/resource-key';
import type { Resource } from '../../spec/resource-types';
import { objectShape } from '../../spec/schema-shape';
import { listItems } from '../build/requests';

/** The members of a sent item (inside its envelope) the answer's schema names (a ticket bought with an email need not echo it). */
export function namedFields(resource: Resource, item: unknown): Record<string, unknown> {
  const named = objectShape(resource.itemSchema)?.properties ?? {};
  return isObject(item) ? Object.fromEntries(Object.entries(item).filter(([k]) => k in named)) : {};
}

/**
 * Whether a list answer (`json`) shows the item `id` (items of an envelope list included), each item's key read
 * as the create's is (spec/resource-key.ts: a nested `/metadata/name`, a composite `/owner/login` + `/name`).
 */
export function listShows(resource: Resource, json: unknown, id: string): boolean {
  const items = listItems(resource, { json }) ?? [];
  return items.some((i) => isObject(i) && recordKey(resource, i) === id);
}
