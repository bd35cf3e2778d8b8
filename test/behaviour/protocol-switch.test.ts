/**
 * Issue 40: an operation documented by `101 Switching Protocols` alone (edrv.io's WebSocket endpoint, cut into
 * fixtures/specs/wild/public/switch-only-40.yaml) is answered `426 Upgrade Required` in the error shape, naming
 * WebSocket where the document does; it was a 500 ("documents no 200 response").
 */
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { loadSpec } from '../../spec/load';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'public', 'switch-only-40.yaml');

it('answers a protocol switch it cannot make with 426 in the error shape', async () => {
  const loaded = await loadSpec(SPEC);
  if (!loaded.ok) throw new Error(loaded.error);
  const handler = await createFetchHandler({ document: loaded.spec });
  const answer = await handler(new Request('http://mock.test/v1/realtime'));
  expect(answer.status).toBe(426);
  expect(answer.headers.get('content-type')).toMatch(/^application\/(problem\+)?json/);
  expect(answer.headers.get('upgrade')).toBe('websocket');
  const body = (await answer.json()) as { code: string; status: number };
  expect(body).toMatchObject({ code: 'upgrade_required', status: 426 });
  expect(JSON.stringify(body)).toContain('documents only a protocol switch (101)');
  expect((await handler(new Request('http://mock.test/v1/chargestations'))).status).toBe(200);
});
