/**
 * Issue 42: the client's fault is never a 5xx of the proxy. Malformed or unfinished requests on raw sockets (a
 * body shorter than its Content-Length then a half-close, a stall or a reset; a Content-Length of 10^10 with a
 * small body; malformed chunks; headers too large) get a 4xx in the error shape, or nothing when the client
 * reset; the proxy's own log holds no 5xx. In front of the mock and of an upstream that reads every body whole
 * before it answers (so the proxy, not the upstream, meets the client's fault). 1,000 of them:
 * `npx tsx bench/proxy-malformed.ts`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { createProxyServer, type ProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { KEYS } from '../support/mock-harness';
import { MALFORMED_KINDS, sendMalformed, sendMalformedMix } from '../support/malformed-clients';

let spec: LoadedSpec;
let mock: MockServer;
let patient: http.Server;
let mockUrl: string;
const proxies: ProxyServer[] = [];

beforeAll(async () => {
  spec = await loadSpecOrThrow();
  mock = await createMockServer({ keys: KEYS });
  mockUrl = await mock.listen(0);
  // Reads the whole body, then answers: a client's unfinished body is met by the proxy first.
  patient = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((r) => patient.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await mock?.close();
  patient?.closeAllConnections();
  await new Promise((r) => patient?.close(r));
});

async function proxyTo(
  upstream: string,
  mode: 'report' | 'enforce',
): Promise<{ proxy: ProxyServer; base: URL }> {
  const proxy = createProxyServer({
    spec,
    upstream: new URL(upstream),
    mode,
    timeoutMs: 600,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  proxies.push(proxy);
  return { proxy, base: new URL(await proxy.listen(0, '127.0.0.1')) };
}

const upstreams = {
  mock: async () => mockUrl,
  'a patient upstream': async () => `http://127.0.0.1:${(patient.address() as AddressInfo).port}/v1`,
};

describe.each([
  ['mock', 'report'],
  ['a patient upstream', 'report'],
  ['a patient upstream', 'enforce'],
] as const)('in front of %s, %s mode', (upstream, mode) => {
  it.each(MALFORMED_KINDS.map((k) => [k.name, k] as const))(
    '%s: a 4xx in the error shape',
    async (_n, kind) => {
      const { base } = await proxyTo(await upstreams[upstream](), mode);
      const out = await sendMalformed(base, kind);
      // A client that resets sees no answer, unless the answer (the mock's 413 to a huge length) wins the race.
      if (kind.then === 'reset' && out.status === 0) return;
      {
        expect({ kind: kind.name, status: out.status }).toEqual({
          kind: kind.name,
          status: expect.any(Number),
        });
        expect(kind.expect).toContain(out.status);
        expect(out.errorShape).toBe(true);
      }
    },
  );

  it('a mix of 200 malformed requests: no 5xx answered, none in the proxy log, none judged the upstream’s', async () => {
    const { proxy, base } = await proxyTo(await upstreams[upstream](), mode);
    const outcomes = await sendMalformedMix(base, 200, 25);
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    expect(outcomes.filter((o) => o.status > 0 && !o.errorShape).map((o) => o.raw.slice(0, 200))).toEqual([]);
    const log = (await (await fetch(`${base.origin}/_mock/exchanges`)).json()) as {
      exchanges: Array<{ status: number }>;
    };
    expect(log.exchanges.filter((e) => e.status >= 500)).toEqual([]);
    const upstreamRules = proxy.judge.snapshot().violations.filter((v) => v.rule.startsWith('upstream.'));
    expect(upstreamRules).toEqual([]);
  }, 60_000);
});
