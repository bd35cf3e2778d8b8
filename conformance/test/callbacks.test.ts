/**
 * Issue 33, the runner receives: with `callbacksListen` the runner stands up a receiver on 127.0.0.1, fills each
 * callback URL source of an operation with `callbacks` (the body's callbackUrl, the query's audit) with its own
 * path, and judges what arrives: each documented callback within the wait, with its method and a body valid
 * against its schema, and nothing else. Against the mock (which sends the callbacks) and against a stub server
 * that sends them wrong, one way at a time. Without `callbacksListen` the rules are skipped as the options' choice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMockServer, type MockServer } from '../../mock/node';
import { runConformance } from '../index';
import { judgeRun, skipCause } from '../verdict/gate';
import type { Report } from '../types';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'frontend-31.yaml');
const KEY = 'callbacks-key-0123456789';
const RULES = ['callbacks.arrive', 'callbacks.method', 'callbacks.body-schema', 'callbacks.undocumented'];

const statusOf = (report: Report) =>
  Object.fromEntries(report.rules.filter((r) => RULES.includes(r.id)).map((r) => [r.id, r.status]));
const problemsOf = (report: Report, id: string) =>
  report.rules.find((r) => r.id === id)?.evidence.map((e) => e.problem) ?? [];

const run = (
  target: string,
  extra: Parameters<typeof runConformance>[0] extends infer O ? Partial<O> : never,
) =>
  runConformance({
    target,
    key: KEY,
    specFile: SPEC,
    scenariosDir: 'none',
    include: ['callbacks'],
    seed: 7,
    timeoutMs: 5000,
    ...extra,
  });

describe('against the mock, which sends the documented callbacks', () => {
  let mock: MockServer;
  let target: string;
  beforeAll(async () => {
    mock = await createMockServer({
      specPath: SPEC,
      seedFile: null,
      keys: [{ key: KEY, plan: 'business' }],
      quiet: true,
    });
    await mock.listen(0);
    target = `http://127.0.0.1:${(mock.server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => mock.close());

  it('every callback arrives at the receiver, with its method and a valid body: the rules pass, exit 0', async () => {
    const urls: string[] = [];
    const report = await run(target, {
      callbacksListen: 0,
      onProgress: (e) => e.type === 'callbacks' && urls.push(e.url),
    });
    expect(statusOf(report)).toEqual(Object.fromEntries(RULES.map((id) => [id, 'pass'])));
    expect(urls).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)]);
    // Both callbacks of createSubscription went to the receiver: the body's callbackUrl and the query's audit.
    await mock.deps.callbacks?.idle();
    const sent = (mock.deps.callbacks?.list() ?? []).filter((r) => r.url?.startsWith(urls[0] ?? '-'));
    expect(sent.map((r) => [r.name, r.outcome]).sort()).toEqual([
      ['onAudit', 'sent'],
      ['onEvent', 'sent'],
    ]);
    expect(judgeRun(report).code).toBe(0);
  });

  it('without callbacksListen the rules are skipped as the options ask (not a pass, not "could not judge")', async () => {
    const report = await run(target, {});
    expect(statusOf(report)).toEqual(Object.fromEntries(RULES.map((id) => [id, 'skip'])));
    expect(problemsOf(report, 'callbacks.arrive')[0]).toMatch(/^no --callbacks-listen: no receiver/);
    expect(skipCause(problemsOf(report, 'callbacks.arrive')[0] ?? '')).toBe('options');
    // Four rules, all skipped by the options: not "more than half could not be judged".
    expect(judgeRun(report).code).toBe(0);
    // A rule that must run and cannot: exit 2.
    const required = await run(target, { require: ['callbacks'] });
    expect(judgeRun(required).code).toBe(2);
  });
});

type Mode = 'good' | 'wrong-method' | 'invalid-body' | 'stray' | 'silent' | 'twice';

/** A server of the frontend document's createSubscription that sends its callbacks as `mode` says. */
async function stub(mode: Mode) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      if (req.method !== 'POST' || url.pathname !== '/v1/subscriptions') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
        topic: string;
        callbackUrl: string;
      };
      res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 1, ...body }));
      const event = {
        subscriptionId: 1,
        topic: body.topic,
        kind: mode === 'invalid-body' ? 'exploded' : 'created',
      };
      const post = (to: string, method: string, value: unknown) =>
        fetch(to, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) });
      const audit = url.searchParams.get('audit') ?? '';
      void (async () => {
        if (mode === 'silent') return;
        await post(body.callbackUrl, mode === 'wrong-method' ? 'PUT' : 'POST', event);
        if (mode === 'twice') await post(body.callbackUrl, 'POST', event);
        await post(`${audit}/audits/1`, 'PUT', { subscriptionId: 1, topic: body.topic });
        if (mode === 'stray') await post(`${new URL(audit).origin}/elsewhere`, 'POST', event);
      })().catch(() => undefined);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    target: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('against a server that sends its callbacks wrong', () => {
  it.each<[Mode, Record<string, string>, string, RegExp]>([
    ['good', {}, 'callbacks.arrive', /^$/],
    [
      'wrong-method',
      { 'callbacks.method': 'fail', 'callbacks.arrive': 'fail', 'callbacks.undocumented': 'fail' },
      'callbacks.method',
      /a PUT arrived where the document has POST/,
    ],
    [
      'invalid-body',
      { 'callbacks.body-schema': 'fail' },
      'callbacks.body-schema',
      /\/kind must be equal to one of the allowed values/,
    ],
    [
      'stray',
      { 'callbacks.undocumented': 'fail' },
      'callbacks.undocumented',
      /POST \/elsewhere.*never handed out/,
    ],
    [
      'silent',
      { 'callbacks.arrive': 'fail' },
      'callbacks.arrive',
      /callback onEvent \(POST \{\$request\.body#\/callbackUrl\}\) did not arrive .* within 1000 ms/,
    ],
    [
      'twice',
      { 'callbacks.undocumented': 'fail' },
      'callbacks.undocumented',
      /callback onEvent arrived more than once/,
    ],
  ])('%s: %j', async (mode, failing, rule, problem) => {
    const server = await stub(mode);
    try {
      const report = await run(server.target, { callbacksListen: 0, callbacksWaitMs: 1000 });
      const failed = Object.fromEntries(Object.entries(statusOf(report)).filter(([, s]) => s === 'fail'));
      expect(failed).toEqual(failing);
      if (Object.keys(failing).length > 0) {
        expect(problemsOf(report, rule).join('\n')).toMatch(problem);
        expect(judgeRun(report).code).toBe(1);
      } else expect(judgeRun(report).code).toBe(0);
    } finally {
      await server.close();
    }
  });
});

it('--rule of a callback rule on a document without callbacks says why', async () => {
  await expect(
    runConformance({ target: 'http://127.0.0.1:1/v1', key: KEY, rules: ['callbacks.arrive'] }),
  ).rejects.toThrow(
    'rule "callbacks.arrive" needs an operation that documents callbacks, which the document lacks',
  );
});
