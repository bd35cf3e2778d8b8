/**
 * `tsx bench/proxy.ts [--seconds S]`: the validation proxy against a bare node:http pass-through proxy, both in
 * front of the same fixed upstream (canned list bytes), GET of a list; throughput ratio and added p50 latency.
 * Prism's proxy is not measured here yet (see docs/judge-traffic.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createProxyServer } from '../mock/node/proxy/proxy-server';
import { loadSpecOrThrow } from '../spec/load';

const LIST = Buffer.from(
  JSON.stringify([
    { id: 1, name: 'dog', description: 'Dogs' },
    { id: 2, name: 'cat' },
  ]),
);

const listen = (server: http.Server) =>
  new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));

async function load(port: number, seconds: number) {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}/v1/categories`,
    headers: { authorization: 'Bearer bench-key' },
    connections: 16,
    duration: seconds,
  });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, errors: r.errors + r.non2xx };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string' } } });
  const seconds = Number(values.seconds ?? 3);
  const upstream = http.createServer((_req, res) => {
    const reset = String(Math.ceil(Date.now() / 1000) + 60);
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-length': LIST.length,
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '99',
        'x-ratelimit-reset': reset,
      })
      .end(LIST);
  });
  const upPort = await listen(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const bare = http.createServer((req, res) => {
    const up = http.request(
      { host: '127.0.0.1', port: upPort, path: req.url, method: req.method, headers: req.headers, agent },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  const barePort = await listen(bare);
  const spec = await loadSpecOrThrow();
  const ours = createProxyServer({
    spec,
    upstream: new URL(`http://127.0.0.1:${upPort}/v1`),
    mode: 'report',
    timeoutMs: 30_000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const oursPort = Number(new URL(await ours.listen(0, '127.0.0.1')).port);
  await load(oursPort, 1);
  const direct = await load(upPort, seconds);
  const b = await load(barePort, seconds);
  const o = await load(oursPort, seconds);
  const row = (name: string, r: { rps: number; p50: number; errors: number }) =>
    `${name.padEnd(24)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50.toFixed(2)} ms  errors ${r.errors}`;
  process.stdout.write(
    `${[row('upstream direct', direct), row('bare pass-through', b), row('validation proxy', o)].join('\n')}\n`,
  );
  process.stdout.write(
    `ratio proxy/bare ${(o.rps / b.rps).toFixed(2)} (goal >= 0.6); added p50 vs bare ${(o.p50 - b.p50).toFixed(2)} ms; violations seen ${ours.judge.snapshot().violations.length}\n`,
  );
  await ours.close();
  bare.close();
  upstream.close();
  agent.destroy();
}

void main();
