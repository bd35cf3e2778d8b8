/**
 * `--target A --compare B`: the faithful club server against each one-fault variant
 * (test/support/fuzz-servers.ts): every fault shows as a difference on the right side (A, the faithful one, right by the
 * document), and a server compared with itself shows none.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { main } from '../cli';
import { createMockServer } from '../../mock/node/index';
import { KEYS } from '../../test/support/mock-harness';
import { runParity, findings } from '../parity/run-parity';
import type { ConformanceOptions } from '../types';
import { clubServer, FAULTS, FUZZ_KEY } from '../../test/support/fuzz-servers';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-club-31.yaml');

const options = (fault?: (typeof FAULTS)[number]): ConformanceOptions => ({
  target: 'http://club.test/v1',
  key: FUZZ_KEY,
  specFile: SPEC,
  seed: 7,
  maxWaitMs: 1000,
  scenariosDir: 'none',
  include: ['fuzz', 'body'],
  fuzz: true,
  maxExamples: 20,
  failuresDir: path.join(__dirname, '..', '..', '.conformance', 'parity-test'),
  fetch: clubServer(fault),
});

it('the same server twice: the same cases, no difference', async () => {
  const run = await runParity(options(), { target: 'http://club.test/v1', fetch: clubServer() });
  expect(run.result.onlyA + run.result.onlyB).toBe(0);
  expect(run.result.paired).toBeGreaterThan(100);
  expect(run.result.differences).toEqual([]);
}, 60_000);

it.each(FAULTS)(
  'fault %s shows as a difference where A (faithful) is right',
  async (fault) => {
    const run = await runParity(options(), { target: 'http://club.test/v1', fetch: clubServer(fault) });
    const found = findings(run.result);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((d) => d.verdict === 'a-right').length).toBeGreaterThan(0);
    // Never the faithful server blamed.
    expect(found.filter((d) => d.verdict === 'b-right' || d.verdict === 'both-wrong')).toEqual([]);
  },
  60_000,
);

describe('petstore-conformance --target A --compare B', () => {
  let out = '';
  beforeEach(() => {
    out = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());

  it('two mocks behave alike (exit 0); the mock against a server that forgets its rate-limit headers differs where the mock is right (exit 1)', async () => {
    const a = await createMockServer({ keys: KEYS });
    const b = await createMockServer({ keys: KEYS });
    const urlA = await a.listen(0);
    const urlB = await b.listen(0);
    // B without its rate-limit headers: a fetch-level proxy in front of the second mock.
    const bare = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(`${urlB}${(req.url ?? '').replace(/^\/v1/, '')}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const headers = Object.fromEntries(
        [...answer.headers].filter(
          ([k]) => !/^(x-ratelimit|ratelimit|content-length|transfer-encoding)/i.test(k),
        ),
      );
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const urlBare = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1`;
    const args = (compare: string) => [
      '--target',
      urlA,
      '--compare',
      compare,
      '--operation',
      'listCategories',
      '--seed',
      '3',
    ];
    try {
      expect(await main(args(urlB), { CONFORMANCE_API_KEY: 'pro-key' })).toBe(0);
      expect(out).toContain('0 difference(s)');
      out = '';
      expect(await main(args(urlBare), { CONFORMANCE_API_KEY: 'pro-key' })).toBe(1);
      expect(out).toMatch(/a-right\s+rate-limit-headers\s+GET \/v1\/categories/);
      expect(out).not.toMatch(/b-right|both-wrong/);
    } finally {
      bare.close();
      await a.close();
      await b.close();
    }
  }, 60_000);
});
