/**
 * `petstore-conformance --diff OLD NEW --har FILE…`: traffic recorded by the proxy in front of the mock serving
 * the pet store (fixtures/specs/petstore-full.yaml), replayed against its next version
 * (fixtures/specs/history/petstore-next.yaml: createPet and replacePet now require `status`, deleteOrder is
 * removed, a pet's tag is answered in at most 30 characters). The gate finds the planted breaking change the
 * traffic uses, passes the one it does not, and its numbers are the hand count below.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runDiff } from '../../proxy/judge/diff-cli';
import { toHar } from '../../spec/report/har';
import { createMockServer } from '../../mock/node/index';
import { createProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { KEYS } from '../support/mock-harness';

const ROOT = path.join(__dirname, '..', '..');
const OLD = path.join(ROOT, 'fixtures', 'specs', 'petstore-full.yaml');
const NEW = path.join(ROOT, 'fixtures', 'specs', 'history', 'petstore-next.yaml');
const AUTH = { authorization: 'Bearer pro-key', 'content-type': 'application/json' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-gate-'));
const LONG_TAG = 'x'.repeat(40);

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  jest.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
});
afterEach(() => jest.restoreAllMocks());

/** Calls through the proxy in front of a fresh mock, saved as the proxy's HAR (`--report har=`). */
async function record(name: string, calls: (base: string) => Promise<void>): Promise<string> {
  const spec = await loadSpecOrThrow(OLD);
  const mock = await createMockServer({ keys: KEYS, specPath: OLD });
  const upstream = await mock.listen(0);
  const proxy = createProxyServer({
    spec,
    upstream: new URL(upstream),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const base = await proxy.listen(0, '127.0.0.1');
  try {
    await calls(base);
  } finally {
    await proxy.close();
    await mock.close();
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(toHar(proxy.judge.recent(), '0')));
  return file;
}

const times = async (n: number, f: () => Promise<unknown>) => {
  for (let i = 0; i < n; i++) await f();
};
const send = (base: string, method: string, url: string, body?: unknown) =>
  fetch(`${base}${url}`, {
    method,
    headers: AUTH,
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** 13 calls every version accepts (creates carry a status). */
async function faithful(base: string): Promise<number> {
  await send(base, 'GET', '/categories'); // 1
  await times(5, () => send(base, 'GET', '/pets')); // 5
  let id = 0;
  await times(4, async () => {
    const res = await send(base, 'POST', '/pets', { name: 'a', status: 'available' }); // 4
    id = ((await res.json()) as { id: number }).id;
  });
  await send(base, 'PUT', `/pets/${id}`, { name: 'c', status: 'sold' }); // 1
  await times(2, () => send(base, 'GET', `/pets/${id}`)); // 2
  return id;
}

let used: string;
let unused: string;

beforeAll(async () => {
  unused = await record('unused.har', async (base) => void (await faithful(base)));
  used = await record('used.har', async (base) => {
    const id = await faithful(base); // 13
    await times(3, () => send(base, 'POST', '/pets', { name: 'b' })); // 3 refused by NEW (createPet)
    await send(base, 'POST', '/pets', { name: 1 }); // 1 the old version refuses already
    await times(2, () => send(base, 'PUT', `/pets/${id}`, { name: 'c' })); // 2 refused by NEW (replacePet)
    let tagged = 0;
    await times(2, async () => {
      const res = await send(base, 'POST', '/pets', { name: 't', status: 'pending', tag: LONG_TAG }); // 2 answers rejected
      tagged = ((await res.json()) as { id: number }).id;
    });
    await send(base, 'GET', `/pets/${tagged}`); // 1 answer rejected (getPetById)
  });
}, 30_000);

interface Json {
  verdict: { code: number; headlines: string[] };
  changes: { kind: string; operationId: string; breaking: boolean; exercised: boolean; calls: number }[];
  traffic: {
    recorded: number;
    alreadyRefused: number;
    operations: { operationId: string; refused: number; rejected: number; calls: number }[];
  };
}

it('fails on the breaking change the recorded traffic uses, with the hand-counted numbers', async () => {
  const json = path.join(dir, 'used.json');
  const junit = path.join(dir, 'used.xml');
  const code = await runDiff([
    '--diff',
    OLD,
    NEW,
    '--har',
    used,
    '--report',
    `json=${json}`,
    '--report',
    `junit=${junit}`,
  ]);
  expect(code).toBe(1);
  const r = JSON.parse(fs.readFileSync(json, 'utf8')) as Json;
  // 13 + 3 + 1 + 2 + 2 + 1 recorded; the invalid create was refused by the old version too.
  expect(r.traffic.recorded).toBe(22);
  expect(r.traffic.alreadyRefused).toBe(1);
  const op = (id: string) => r.traffic.operations.find((o) => o.operationId === id);
  expect(op('createPet')).toMatchObject({ calls: 10, refused: 3, rejected: 2 });
  expect(op('replacePet')).toMatchObject({ calls: 3, refused: 2, rejected: 0 });
  expect(op('getPetById')).toMatchObject({ calls: 3, refused: 0, rejected: 1 });
  expect(op('listPets')).toMatchObject({ calls: 5, refused: 0, rejected: 0 });
  expect(r.verdict.headlines).toContain(
    '5 of 21 judged requests, from 2 operations, would be refused by the new version',
  );
  expect(r.verdict.headlines).toContain(
    "3 of 16 judged answers, from 2 operations, would be rejected by the new version's response schemas",
  );
  const change = (kind: string, id: string) => r.changes.find((c) => c.kind === kind && c.operationId === id);
  expect(change('request.property.required', 'createPet')).toMatchObject({
    breaking: true,
    exercised: true,
    calls: 3,
  });
  expect(change('request.property.required', 'replacePet')).toMatchObject({
    breaking: true,
    exercised: true,
    calls: 2,
  });
  expect(change('operation.removed', 'deleteOrder')).toMatchObject({
    breaking: true,
    exercised: false,
    calls: 0,
  });
  expect(out).toContain('3× request.body: /status is required');
  const xml = fs.readFileSync(junit, 'utf8');
  expect(xml).toContain('traffic.refused createPet');
  for (const text of [out, err, xml, fs.readFileSync(json, 'utf8')]) expect(text).not.toContain('pro-key');
});

it('passes when the traffic does not use the breaking changes; --strict fails on them', async () => {
  expect(await runDiff(['--diff', OLD, NEW, '--har', unused])).toBe(0);
  expect(out).toContain('0 of 13 judged requests, from 0 operations, would be refused by the new version');
  expect(out).toMatch(/BREAKING\s+unused\s+DELETE \/store\/orders\/\{orderId\}/);
  // createPet is called (with a status): its new requirement is not hit, yet the operation is not unused.
  expect(out).toMatch(/BREAKING\s+not hit\s+POST \/pets body \/status/);
  expect(await runDiff(['--diff', OLD, NEW, '--har', unused, '--strict'])).toBe(1);
});

it('several HAR files are one traffic: the counts add up', async () => {
  const json = path.join(dir, 'both.json');
  expect(await runDiff(['--diff', OLD, NEW, '--har', used, unused, '--report', `json=${json}`])).toBe(1);
  const r = JSON.parse(fs.readFileSync(json, 'utf8')) as Json;
  expect(r.traffic.recorded).toBe(35);
  expect(r.verdict.headlines[0]).toBe(
    '34 of 35 recorded requests judged; 0 outside the old document (not judged), 1 already refused by the old version (counted apart)',
  );
  expect(r.verdict.headlines[1]).toBe(
    '5 of 34 judged requests, from 2 operations, would be refused by the new version',
  );
});

it('without traffic every breaking change fails; bad input exits 2', async () => {
  expect(await runDiff(['--diff', OLD, NEW])).toBe(1);
  expect(await runDiff(['--diff', OLD, OLD])).toBe(0);
  expect(out).toContain('no changes');
  expect(await runDiff(['--diff', OLD])).toBe(2);
  expect(await runDiff(['--diff', OLD, path.join(dir, 'missing.yaml')])).toBe(2);
  const notHar = path.join(dir, 'not.har');
  fs.writeFileSync(notHar, '{"log":{}}');
  expect(await runDiff(['--diff', OLD, NEW, '--har', notHar])).toBe(2);
  const empty = path.join(dir, 'empty.har');
  fs.writeFileSync(empty, '{"log":{"entries":[]}}');
  expect(await runDiff(['--diff', OLD, NEW, '--har', empty])).toBe(2);
});

it("a raw HAR (a browser's, unmasked) never shows its token, in the table or any report", async () => {
  const token = 'sk-live-abcdef0123456789';
  const raw = path.join(dir, 'raw.har');
  fs.writeFileSync(
    raw,
    JSON.stringify({
      log: {
        version: '1.2',
        entries: [
          {
            request: {
              method: 'POST',
              url: `https://staging.example.com/v1/pets?trace=${token}`,
              headers: [
                { name: 'Authorization', value: `Bearer ${token}` },
                { name: 'Cookie', value: `session=${token}` },
              ],
              postData: { mimeType: 'application/json', text: '{"name":"x"}' },
            },
            response: { status: 201, headers: [], content: { text: '{"id":1,"name":"x"}' } },
          },
        ],
      },
    }),
  );
  const files = ['json', 'junit', 'html', 'markdown'].map((k) => [k, path.join(dir, `raw.${k}`)] as const);
  const code = await runDiff([
    '--diff',
    OLD,
    NEW,
    '--har',
    raw,
    ...files.flatMap(([k, f]) => ['--report', `${k}=${f}`]),
  ]);
  expect(code).toBe(1);
  expect(out).toContain('1 of 1 judged requests, from 1 operation, would be refused by the new version');
  expect(out).toContain('e.g. POST /v1/pets?trace=sk-l…(masked)');
  for (const text of [out, err, ...files.map(([, f]) => fs.readFileSync(f, 'utf8'))])
    expect(text).not.toContain(token);
});

it('a recorded call of an operation the new version removes fails the gate and is named', async () => {
  const file = path.join(dir, 'orders.har');
  const call = (status: number) => ({
    request: {
      method: 'DELETE',
      url: '/v1/store/orders/4',
      headers: [{ name: 'Authorization', value: 'Bearer k' }],
    },
    response: { status, headers: [], content: { text: '' } },
  });
  fs.writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [call(204), call(404)] } }));
  expect(await runDiff(['--diff', OLD, NEW, '--har', file])).toBe(1);
  expect(out).toContain('2 recorded requests use 1 operation the new version removes: deleteOrder');
  expect(out).toMatch(/BREAKING\s+used 2×\s+DELETE \/store\/orders\/\{orderId\}/);
  expect(out).toContain('request.method: DELETE is not documented for this path');
});
