/**
 * `petstore-mock --seed-har FILE…`: a mock seeded from traffic recorded through the proxy in front of another
 * mock answers the same records under the same ids; answers the response view refuses are left out with why;
 * no key of the HAR is stored or shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMockServer } from '../../mock/node/index';
import { parseConfig } from '../../mock/node/config';
import { createProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { toHar } from '../../spec/report/har';
import { KEYS } from '../support/mock-harness';

const FULL = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'petstore-full.yaml');
const AUTH = { authorization: 'Bearer pro-key', 'content-type': 'application/json' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-har-'));

interface Pet {
  id: number;
  name: string;
  tag?: string;
}

let recorded: string;
let forged: string;
let ids: number[] = [];

beforeAll(async () => {
  const upstream = await createMockServer({ keys: KEYS, specPath: FULL });
  const proxy = createProxyServer({
    spec: await loadSpecOrThrow(FULL),
    upstream: new URL(await upstream.listen(0)),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const base = await proxy.listen(0, '127.0.0.1');
  const create = async (body: unknown) =>
    (
      (await (
        await fetch(`${base}/pets`, { method: 'POST', headers: AUTH, body: JSON.stringify(body) })
      ).json()) as Pet
    ).id;
  ids = [
    await create({ name: 'rex', tag: 'dog' }),
    await create({ name: 'tom' }),
    await create({ name: 'gone' }),
  ];
  await fetch(`${base}/pets/${ids[1]}`, {
    method: 'PUT',
    headers: AUTH,
    body: JSON.stringify({ name: 'tom', tag: 'cat' }),
  });
  await fetch(`${base}/pets/${ids[2]}`, { method: 'DELETE', headers: AUTH });
  await fetch(`${base}/pets`, { headers: AUTH });
  await proxy.close();
  await upstream.close();
  const har = toHar(proxy.judge.recent(), '0');
  recorded = path.join(dir, 'recorded.har');
  fs.writeFileSync(recorded, JSON.stringify(har));
  // A second file: answers a real server gave that the document refuses (an empty name, no id), and a key in the
  // request headers the mock must never show.
  const entry = (url: string, body: unknown) => ({
    request: { method: 'GET', url, headers: [{ name: 'Authorization', value: 'Bearer sk-live-0123456789' }] },
    response: {
      status: 200,
      headers: [],
      content: { mimeType: 'application/json', text: JSON.stringify(body) },
    },
  });
  forged = path.join(dir, 'forged.har');
  fs.writeFileSync(
    forged,
    JSON.stringify({
      log: {
        version: '1.2',
        entries: [
          entry('/v1/pets/77', { id: 77, name: '' }),
          entry('/v1/pets', [{ name: 'no id' }, { id: 78, name: 'kept', tag: 'x' }]),
        ],
      },
    }),
  );
}, 30_000);

it('serves the recorded records under their ids: the replace applied, the deleted one gone', async () => {
  const mock = await createMockServer({ keys: KEYS, specPath: FULL, seedHarFiles: [recorded] });
  const base = await mock.listen(0);
  try {
    const list = (await (await fetch(`${base}/pets`, { headers: AUTH })).json()) as Pet[];
    expect(list).toEqual([
      { id: ids[0], name: 'rex', tag: 'dog' },
      { id: ids[1], name: 'tom', tag: 'cat' },
    ]);
    expect((await fetch(`${base}/pets/${ids[2]}`, { headers: AUTH })).status).toBe(404);
    // New records continue after the recorded ids.
    const made = (await (
      await fetch(`${base}/pets`, { method: 'POST', headers: AUTH, body: '{"name":"new"}' })
    ).json()) as Pet;
    expect(made.id).toBeGreaterThan(Math.max(...ids.slice(0, 2)));
    expect(mock.warnings.join('\n')).toContain('seeded from 1 HAR file(s): pets 2');
  } finally {
    await mock.close();
  }
});

it('leaves out what the response view refuses, says why, and never stores or shows a key', async () => {
  const mock = await createMockServer({ keys: KEYS, specPath: FULL, seedHarFiles: [recorded, forged] });
  const base = await mock.listen(0);
  try {
    const list = (await (await fetch(`${base}/pets`, { headers: AUTH })).json()) as Pet[];
    expect(list.map((p) => p.id)).toEqual([ids[0], ids[1], 78]);
    const text = mock.warnings.join('\n');
    expect(text).toContain('left out pets 77: /name must NOT have fewer than 1 characters');
    expect(text).toContain('left out pets: an item of the answer has no id');
    expect(JSON.stringify(list) + text).not.toMatch(/sk-live|pro-key/);
  } finally {
    await mock.close();
  }
});

it('--seed-har takes several files, and refuses a file that is not a HAR', async () => {
  const parsed = parseConfig(['--spec', FULL, '--seed-har', recorded, forged, '--port', '0']);
  expect(parsed.ok === true && parsed.config.seedHarFiles).toEqual([recorded, forged]);
  const bad = path.join(dir, 'bad.har');
  fs.writeFileSync(bad, '{"log":{}}');
  await expect(createMockServer({ keys: KEYS, specPath: FULL, seedHarFiles: [bad] })).rejects.toThrow(
    /not a HAR/,
  );
});

it('the next version newly requires a property: the records without it are left out by id, the start goes on', async () => {
  const ROOT = path.join(__dirname, '..', '..');
  const next = path.join(ROOT, 'fixtures', 'specs', 'history', 'petstore-next.yaml');
  const staging = path.join(ROOT, 'fixtures', 'traffic', 'staging.har');
  const mock = await createMockServer({ keys: KEYS, specPath: next, seedHarFiles: [staging] });
  const base = await mock.listen(0);
  try {
    const text = mock.warnings.join('\n');
    const leftOut = [...text.matchAll(/left out pets (\d+): \/status is required/g)].map((m) => Number(m[1]));
    expect(leftOut.length).toBeGreaterThan(0);
    const list = (await (await fetch(`${base}/pets`, { headers: AUTH })).json()) as Pet[];
    expect(list.length).toBeGreaterThan(0);
    for (const id of leftOut) {
      expect(list.map((p) => p.id)).not.toContain(id);
      expect((await fetch(`${base}/pets/${id}`, { headers: AUTH })).status).toBe(404);
    }
  } finally {
    await mock.close();
  }
});
