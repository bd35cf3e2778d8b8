/**
 * One coverage gate: the runner, the proxy and `--judge-har` write the same coverage file
 * (`--report coverage=FILE`); `--coverage FILE…` merges them and `--min-coverage` gates on the union, where a
 * pair only the proxy saw counts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../conformance/cli';
import { runJudgeHar } from '../../proxy/judge/har-cli';
import { writeReports } from '../../proxy/proxy-reports';
import { createProxyServer } from '../../proxy/proxy-server';
import { createMockServer } from '../../mock/node/index';
import { loadSpecOrThrow } from '../../spec/load';
import type { CoverageFile } from '../../spec/report/coverage-file';
import { KEYS } from '../support/mock-harness';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-gate-'));
const file = (name: string) => path.join(dir, name);
const AUTH = { authorization: 'Bearer pro-key', 'content-type': 'application/json' };
const read = (name: string) => JSON.parse(fs.readFileSync(file(name), 'utf8')) as CoverageFile;
const seen = (f: CoverageFile) =>
  new Set(f.pairs.filter((p) => p.count > 0).map((p) => `${p.operationId} ${p.status}`));

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  jest.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
});
afterEach(() => jest.restoreAllMocks());

let mock: Awaited<ReturnType<typeof createMockServer>>;
let url: string;
beforeAll(async () => {
  mock = await createMockServer({ keys: KEYS });
  url = await mock.listen(0);
  // The proxy sees traffic the runner does not send: a create refused with 400 three times, one 201.
  const proxy = createProxyServer({
    spec: await loadSpecOrThrow(),
    upstream: new URL(url),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const base = await proxy.listen(0, '127.0.0.1');
  for (const body of ['{"name":1}', '{"name":2}', '{}', '{"name":"vole"}'])
    await fetch(`${base}/categories`, { method: 'POST', headers: AUTH, body });
  await proxy.close();
  writeReports(proxy.judge, url, { coverage: file('proxy.json'), har: file('proxy.har') });
}, 30_000);
afterAll(() => mock.close());

it('the proxy and --judge-har write the same pairs with counts', async () => {
  expect(read('proxy.json').pairs).toContainEqual(
    expect.objectContaining({ operationId: 'createCategory', status: '400', count: 3 }),
  );
  expect(
    await runJudgeHar(['--judge-har', file('proxy.har'), '--report', `coverage=${file('har.json')}`]),
  ).toBe(0);
  expect(read('har.json').pairs).toEqual(read('proxy.json').pairs);
});

it('the runner writes it too; --coverage merges, and --min-coverage gates on the union', async () => {
  const env = { CONFORMANCE_API_KEY: 'pro-key' };
  const run = ['--target', url, '--operation', 'listCategories', '--rule', 'auth.missing-key'];
  const code = await main([...run, '--report', `coverage=${file('runner.json')}`], env);
  if (code !== 0) throw new Error(err);
  expect(code).toBe(0);
  const runner = read('runner.json');
  expect(seen(runner).has('createCategory 400')).toBe(false);
  const union = new Set([...seen(runner), ...seen(read('proxy.json'))]);
  expect(union.has('createCategory 400')).toBe(true);

  // Alone: the union of the files, its HTML listing what nothing exercised.
  // The runner covered one operation; the proxy's file documents them all: the union documents every pair.
  const total = new Set(
    [...runner.pairs, ...read('proxy.json').pairs].map((p) => `${p.operationId} ${p.status}`),
  ).size;
  expect(total).toBeGreaterThan(runner.pairs.length);
  out = '';
  const percent = (union.size / total) * 100;
  const html = file('union.html');
  const gate = ['--coverage', file('runner.json'), file('proxy.json')];
  expect(
    await main([...gate, '--report', `html=${html}`, '--report', `coverage=${file('u.json')}`], {}),
  ).toBe(0);
  expect(seen(read('u.json'))).toEqual(union);
  expect(out).toContain(`${union.size}/${total} documented (operation, status) pairs observed`);
  expect(fs.readFileSync(html, 'utf8')).toContain('documented, never exercised');
  expect(await main([...gate, '--min-coverage', String(Math.floor(percent))], {})).toBe(0);
  expect(await main([...gate, '--min-coverage', String(Math.ceil(percent + 0.01))], {})).toBe(1);
  expect(
    await main(['--coverage', file('proxy.json'), '--min-coverage', String(Math.floor(percent))], {}),
  ).toBe(1);

  // With a run: the run's own coverage and the proxy's file, one gate and one report.
  const withRun = [
    ...run,
    '--coverage',
    file('proxy.json'),
    '--report',
    `coverage=${file('run-union.json')}`,
  ];
  expect(await main([...withRun, '--min-coverage', String(Math.floor(percent))], env)).toBe(0);
  expect(seen(read('run-union.json'))).toEqual(union);
  expect(await main([...withRun, '--min-coverage', String(Math.ceil(percent + 0.01))], env)).toBe(1);
  expect(err).toMatch(/coverage [\d.]+% is under --min-coverage/);
}, 60_000);

it('a file that is not coverage exits 2 before any request', async () => {
  fs.writeFileSync(file('bad.json'), '{"rules":[]}');
  expect(await main(['--coverage', file('bad.json')], {})).toBe(2);
  expect(err).toContain('not a coverage file');
  expect(await main(['--target', url, '--key', 'k', '--coverage', file('bad.json')], {})).toBe(2);
});
