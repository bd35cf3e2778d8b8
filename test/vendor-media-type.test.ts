/**
 * Issue 40: answers carry the JSON media type their document gives, a vendor's with a parameter too, on every
 * path of the mock: the first list, the repeated list served from its cached bytes, a create, a read; and a
 * create's Location in the form its documented pattern gives.
 */
import path from 'node:path';
import { createFetchHandler } from '../mock/adapters/fetch';
import { loadSpecOrThrow } from '../spec/load';

const FILE = path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'public', 'vendor-json-40.yaml');
const COLLECTION = 'application/vnd.waterlinked.poi+json; type=collection';

it('every answer carries the documented vendor media type', async () => {
  const handler = await createFetchHandler({ document: await loadSpecOrThrow(FILE) });
  const get = (p: string) => handler(new Request(`http://mock.test/api/v1${p}`));
  for (let i = 0; i < 2; i++) expect((await get('/poi/')).headers.get('content-type')).toBe(COLLECTION);
  const created = await handler(
    new Request('http://mock.test/api/v1/poi/', {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.waterlinked.poi+json' },
      body: JSON.stringify({ name: 'wreck' }),
    }),
  );
  expect(created.status).toBe(201);
  expect(created.headers.get('content-type')).toBe('application/vnd.waterlinked.poi+json');
  const { id } = (await created.json()) as { id: number };
  expect(created.headers.get('location')).toBe(`/poi/${id}`);
  expect((await get(`/poi/${id}`)).headers.get('content-type')).toBe('application/vnd.waterlinked.poi+json');
  expect((await get('/poi/')).headers.get('content-type')).toBe(COLLECTION);
});
