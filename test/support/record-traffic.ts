/**
 * Writes fixtures/traffic/staging.har, the recording the release page starts with (`npx tsx
 * test/support/record-traffic.ts`): the calls of test/e2e/release-gate.test.ts, sent through the proxy in front
 * of the mock serving fixtures/specs/petstore-full.yaml, saved as the proxy's HAR (keys masked).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createMockServer } from '../../mock/node/index';
import { createProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { toHar } from '../../spec/report/har';

const ROOT = path.join(__dirname, '..', '..');
const OLD = path.join(ROOT, 'fixtures', 'specs', 'petstore-full.yaml');
const AUTH = { authorization: 'Bearer pro-demo-key', 'content-type': 'application/json' };

async function main(): Promise<void> {
  const mock = await createMockServer({ keys: [{ key: 'pro-demo-key', plan: 'pro' }], specPath: OLD });
  const proxy = createProxyServer({
    spec: await loadSpecOrThrow(OLD),
    upstream: new URL(await mock.listen(0)),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const base = await proxy.listen(0, '127.0.0.1');
  const send = async (method: string, url: string, body?: unknown) =>
    (
      await fetch(`${base}${url}`, {
        method,
        headers: AUTH,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json() as Promise<{
      id: number;
    }>;
  await send('GET', '/categories');
  for (let i = 0; i < 5; i++) await send('GET', '/pets');
  let id = 0;
  for (let i = 0; i < 4; i++) id = (await send('POST', '/pets', { name: 'a', status: 'available' })).id;
  await send('PUT', `/pets/${id}`, { name: 'c', status: 'sold' });
  for (let i = 0; i < 2; i++) await send('GET', `/pets/${id}`);
  for (let i = 0; i < 3; i++) await send('POST', '/pets', { name: 'b' }); // the next version requires status
  await send('POST', '/pets', { name: 1 }); // refused by this version already
  for (let i = 0; i < 2; i++) await send('PUT', `/pets/${id}`, { name: 'c' });
  let tagged = 0;
  for (let i = 0; i < 2; i++)
    tagged = (await send('POST', '/pets', { name: 't', status: 'pending', tag: 'x'.repeat(40) })).id;
  await send('GET', `/pets/${tagged}`);
  await proxy.close();
  await mock.close();
  const file = path.join(ROOT, 'fixtures', 'traffic', 'staging.har');
  fs.writeFileSync(file, JSON.stringify(toHar(proxy.judge.recent(), '0'), null, 1) + '\n');
}

void main();
