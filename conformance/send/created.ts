/**
 * What the run created and has not deleted: noted from every 2xx of a create (its id) and forgotten on a delete
 * of that item (2xx or 404), whichever check or scenario sent it, so the clean-up at the end misses nothing.
 */
import type { OperationSpec } from '../../spec/load';
import { createdIdOf } from '../../spec/created-id';
import type { Resource, ResourceModel } from '../../spec/resources';
import type { Exchange } from '../types';
import { notFoundStatus } from '../../spec/statuses';

export interface CreatedItem {
  resource: Resource;
  id: string;
}

export interface CreatedItems {
  observe(exchange: Exchange, op: OperationSpec | undefined): void;
  list(): CreatedItem[];
}

/** An empty ledger for this document's resources. */
export function createdItems(model: ResourceModel): CreatedItems {
  const items = new Map<string, CreatedItem>();
  const keyOf = (resource: Resource, id: string) => `${resource.name}\u0000${id}`;
  return {
    observe(exchange, op) {
      const status = exchange.response?.status ?? 0;
      const binding = op ? model.byOperation.get(op.operationId) : undefined;
      if (!op || !binding) return;
      const { resource, action } = binding;
      if (action === 'create' && status >= 200 && status < 300 && resource.idField && exchange.response) {
        const id = createdIdOf(resource, exchange.response);
        if (id !== undefined) items.set(keyOf(resource, String(id)), { resource, id: String(id) });
      }
      if (action === 'remove' && ((status >= 200 && status < 300) || status === notFoundStatus(op))) {
        const id = itemIdOf(op, exchange.request.url);
        if (id !== undefined) items.delete(keyOf(resource, id));
      }
    },
    list: () => [...items.values()],
  };
}

/** The last path parameter of the request URL, as the operation's template places it. */
function itemIdOf(op: OperationSpec, url: string): string | undefined {
  const pathname = new URL(url).pathname;
  // `/pets/{petId}` has two segments; the URL's last two, under whatever base path, are the ones to match.
  const segments = op.path.split('/').length - 1;
  const tail = `/${pathname.split('/').slice(-segments).join('/')}`;
  const match = op.pathPattern.exec(tail);
  const raw = match?.[match.length - 1];
  return raw === undefined ? undefined : decodeURIComponent(raw);
}
