/** `petstore-conformance --judge-har`: the proxy's own HAR judged offline gives the same verdicts and exit codes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runJudgeHar } from '../../proxy/judge/har-cli';
import { toHar } from '../../spec/report/har';
import { createMockServer } from '../../mock/node/index';
import { createProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { KEYS } from '../support/mock-harness';

const AUTH = { authorization: 'Bearer pro-key', 'content-type': 'application/json' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-har-'));

/** Traffic through the proxy to `upstream`, saved as a HAR file. */
async function recordHar(upstream: string, name: string): Promise<string> {
  const spec = await loadSpecOrThrow();
  const proxy = createProxyServer({
    spec,
    upstream: new URL(upstream),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const base = await proxy.listen(0, '127.0.0.1');
  await fetch(`${base}/categories`, { headers: AUTH });
  await fetch(`${base}/categories`, { method: 'POST', headers: AUTH, body: '{"name":"ferret"}' });
  await fetch(`${base}/categories`, { method: 'POST', headers: AUTH, body: '{"name":1}' });
  await proxy.close();
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(toHar(proxy.judge.recent(), '0')));
  return file;
}

jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
jest.spyOn(process.stderr, 'write').mockImplementation(() => true);

it('a HAR of faithful traffic exits 0 and writes the JUnit report; --min-coverage 100 exits 1', async () => {
  const mock = await createMockServer({ keys: KEYS });
  const file = await recordHar(await mock.listen(0), 'good.har');
  await mock.close();
  const junit = path.join(dir, 'good.xml');
  expect(await runJudgeHar(['--judge-har', file, '--report', `junit=${junit}`])).toBe(0);
  expect(fs.readFileSync(junit, 'utf8')).toContain('request.body createCategory');
  expect(fs.readFileSync(junit, 'utf8')).not.toContain('pro-key');
  expect(await runJudgeHar(['--judge-har', file, '--min-coverage', '100'])).toBe(1);
});

it('a HAR with a server fault exits 1 and names the rule and operation', async () => {
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const file = await recordHar(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, 'bad.har');
  server.close();
  const json = path.join(dir, 'bad.json');
  expect(await runJudgeHar(['--judge-har', file, '--report', `json=${json}`])).toBe(1);
  const report = JSON.parse(fs.readFileSync(json, 'utf8')) as { rules: { id: string; status: string }[] };
  expect(report.rules).toContainEqual(
    expect.objectContaining({ id: 'response.json listCategories', status: 'fail' }),
  );
  expect(report.rules).toContainEqual(
    expect.objectContaining({ id: 'response.accepted-invalid createCategory', status: 'fail' }),
  );
});

it('a file that is not a HAR exits 2', async () => {
  const file = path.join(dir, 'not.har');
  fs.writeFileSync(file, '{"log":{}}');
  expect(await runJudgeHar(['--judge-har', file])).toBe(2);
});
