/** Which operation an exchange is: the document's matcher first, else the one the runner built the request for. */
import { compileSpec } from '../../spec/compile';
import type { LoadedSpec } from '../../spec/load';
import { inferResources } from '../../spec/resources';
import { createClient, type Outgoing } from './client';

const param = { name: 'id', in: 'path' as const, required: true, schema: { type: 'string' as const } };
const spec = compileSpec(
  'doc.json',
  {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/items/search': { get: { operationId: 'search', responses: { '200': { description: 'ok' } } } },
      '/items/{id}/parts': {
        get: { operationId: 'parts', parameters: [param], responses: { '404': { description: 'none' } } },
      },
    },
  },
  false,
) as LoadedSpec;
const model = inferResources(spec);

async function operationOf(out: Partial<Outgoing>): Promise<string | undefined> {
  if (!model.ok) throw new Error(model.error);
  const client = createClient({
    target: 'http://api.test',
    key: '',
    spec,
    model: model.model,
    timeoutMs: 1000,
    maxWaitMs: 1000,
    reserve: 0,
    fetch: () => Promise.resolve(new Response('Not Found', { status: 404 })),
  });
  const result = await client.send({ method: 'GET', path: '/', auth: { use: 'none' }, ...out });
  return result.exchange?.operationId;
}

it('counts a request no template matches as a call of the operation it was built for', async () => {
  expect(await operationOf({ path: '/items//parts', operation: 'parts' })).toBe('parts');
  expect(await operationOf({ path: '/items//parts' })).toBeUndefined();
});

it('counts a request the matcher places as that operation, whatever it was built for', async () => {
  expect(await operationOf({ path: '/items/search', operation: 'parts' })).toBe('search');
});
