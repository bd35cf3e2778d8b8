/**
 * At the end of a run, delete whatever it created where the document has a delete; the report lists the rest
 * (no delete documented, --read-only, or a delete that did not succeed).
 */
import type { LoadedSpec } from '../../spec/load';
import type { Cleanup, Leftover } from '../types';
import type { Client } from '../send/client';
import { itemPathOf, notFoundStatus } from '../build/requests';

/** What the document's delete answers for an item that is gone already (404, or its documented 400). */
const notFoundOf = (spec: LoadedSpec | undefined, operationId: string): number => {
  const op = spec?.byId.get(operationId);
  return op ? notFoundStatus(op) : 404;
};

/** Delete every item the client saw created and not deleted since. */
export async function cleanUp(client: Client, readOnly: boolean, spec?: LoadedSpec): Promise<Cleanup> {
  let deleted = 0;
  const leftovers: Leftover[] = [];
  for (const { resource, id } of client.created.list()) {
    const left = (reason: string) => leftovers.push({ resource: resource.name, id, reason });
    if (!resource.operations.remove || !resource.itemPath) {
      left(`the document has no delete for ${resource.name}`);
      continue;
    }
    if (readOnly) {
      left('--read-only: not deleted');
      continue;
    }
    const result = await client.send({
      method: 'DELETE',
      path: itemPathOf(resource, id),
      auth: { use: 'key' },
    });
    if (result.kind === 'skipped') left(`not deleted: ${result.reason}`);
    else if (result.kind === 'error') left(`DELETE got no response: ${result.exchange.error ?? ''}`);
    else if (
      result.response.status === 404 ||
      result.response.status === notFoundOf(spec, resource.operations.remove) ||
      (result.response.status >= 200 && result.response.status < 300)
    )
      deleted += 1;
    else left(`DELETE answered ${result.response.status}`);
  }
  return { deleted, leftovers };
}
