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

describe('a pure function of the HAR and the document', () => {
  /** A clean listCategories entry recorded at `atMs`, its rate-limit reset 30 s after that. */
  const entryAt = (atMs: number, withDate: boolean) => ({
    startedDateTime: new Date(atMs - 5).toISOString(),
    time: 5,
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:4010/v1/categories',
      headers: [{ name: 'Authorization', value: 'Bearer ***' }],
    },
    response: {
      status: 200,
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'X-RateLimit-Limit', value: '300' },
        { name: 'X-RateLimit-Remaining', value: '299' },
        { name: 'X-RateLimit-Reset', value: String(Math.ceil(atMs / 1000) + 30) },
        ...(withDate ? [{ name: 'Date', value: new Date(atMs).toUTCString() }] : []),
      ],
      content: { mimeType: 'application/json', text: '[{"id":1,"name":"dog"}]' },
    },
  });

  it.each([
    ['its Date header', true],
    ['its startedDateTime', false],
  ])(
    'judges rate-limit times against %s: a clean HAR judged two hours later still passes',
    async (_n, withDate) => {
      const file = path.join(dir, `old-${String(withDate)}.har`);
      const recorded = Date.now() - 2 * 3600_000;
      fs.writeFileSync(
        file,
        JSON.stringify({ log: { version: '1.2', entries: [entryAt(recorded, withDate)] } }),
      );
      const json = path.join(dir, `old-${String(withDate)}.json`);
      expect(await runJudgeHar(['--judge-har', file, '--report', `json=${json}`])).toBe(0);
      const report = JSON.parse(fs.readFileSync(json, 'utf8')) as {
        rules: Array<{ id: string; status: string }>;
      };
      expect(report.rules.find((r) => r.id === 'ratelimit.values listCategories')?.status).toBe('pass');
    },
  );

  it('writes bodies whole up to --max-body-bytes; a longer one is marked truncated and not judged as malformed', async () => {
    const mock = await createMockServer({ keys: KEYS });
    const spec = await loadSpecOrThrow();
    const upstream = await mock.listen(0);
    const record = async (maxBodyBytes: number, name: string) => {
      const proxy = createProxyServer({
        spec,
        upstream: new URL(upstream),
        mode: 'report',
        timeoutMs: 2000,
        maxBodyBytes,
        preserveHost: false,
      });
      const base = await proxy.listen(0, '127.0.0.1');
      await fetch(`${base}/categories`, { headers: AUTH });
      await proxy.close();
      const file = path.join(dir, name);
      fs.writeFileSync(file, JSON.stringify(toHar(proxy.judge.recent(), '0')));
      return file;
    };
    try {
      // A list longer than 4,096 characters (the old excerpt): 60 categories with long descriptions.
      for (let i = 0; i < 60; i++)
        await fetch(`${upstream}/categories`, {
          method: 'POST',
          headers: { ...AUTH, authorization: 'Bearer ent-key' },
          body: JSON.stringify({ name: `cat${i}`, description: 'd'.repeat(100) }),
        });
      const whole = await record(1 << 20, 'whole.har');
      const text =
        (
          JSON.parse(fs.readFileSync(whole, 'utf8')) as {
            log: { entries: Array<{ response: { content: { text: string } } }> };
          }
        ).log.entries[0]?.response.content.text ?? '';
      expect(text.length).toBeGreaterThan(4096);
      expect(() => JSON.parse(text)).not.toThrow();
      expect(await runJudgeHar(['--judge-har', whole])).toBe(0);

      const cut = await record(1000, 'cut.har');
      const content = (
        JSON.parse(fs.readFileSync(cut, 'utf8')) as {
          log: { entries: Array<{ response: { content: { _truncated?: boolean } } }> };
        }
      ).log.entries[0]?.response.content;
      expect(content?._truncated).toBe(true);
      const json = path.join(dir, 'cut.json');
      // The proxy's own upstream.body-size finding is not in the HAR: judged offline, the truncated body is skipped.
      expect(await runJudgeHar(['--judge-har', cut, '--report', `json=${json}`])).toBe(0);
      expect(fs.readFileSync(json, 'utf8')).not.toContain('not JSON');
    } finally {
      await mock.close();
    }
  });

  it('an empty HAR is exit 2: nothing was judged', async () => {
    const file = path.join(dir, 'empty.har');
    fs.writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [] } }));
    expect(await runJudgeHar(['--judge-har', file])).toBe(2);
  });
});
