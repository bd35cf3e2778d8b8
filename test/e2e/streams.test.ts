/**
 * Issue 33, OpenAPI 3.2 `itemSchema` streams end to end: the mock answers an SSE operation with framed events
 * and a JSON Lines operation with lines, each item valid, written as a stream (node server and fetch entry); the
 * proxy in front of an upstream that sends an invalid item reports a finding naming the item.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, documentedResponse, type LoadedSpec } from '../../spec/load';
import { dereference } from '../../spec/deref';
import { readEvents, readItems } from '../../spec/http/stream-format';
import { streamProblem } from '../../spec/http/streams';
import os from 'node:os';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { createMswHandlers } from '../../mock/adapters/msw';
import { setupServer } from 'msw/node';
import { createProxyServer } from '../../proxy/proxy-server';
import { runJudgeHar } from '../../proxy/judge/har-cli';
import { toHar } from '../../spec/report/har';
import { main as runner } from '../../conformance/cli';
import { walkDocument } from '../../conformance/lifecycle/document-walk';
import { inferResources } from '../../spec/resources';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'streams-32.yaml');
const document = parse(fs.readFileSync(FILE, 'utf8')) as OpenAPIV3_1.Document;
const spec = compileSpec(FILE, dereference(document), true) as LoadedSpec;
const stream = (operationId: string, type: string) =>
  documentedResponse(spec.byId.get(operationId)!, 200)!.streams!.find((s) => s.mediaType === type)!;

const servers: http.Server[] = [];
const mocks: MockServer[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The node server over the 3.2 document file; `settings` a settings file's content. */
async function nodeMock(settings?: object): Promise<string> {
  let settingsFile: string | undefined;
  if (settings) {
    settingsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'streams-')), 'settings.json');
    fs.writeFileSync(settingsFile, JSON.stringify(settings));
  }
  const mock = await createMockServer({ specPath: FILE, seedFile: null, quiet: true, settingsFile });
  mocks.push(mock);
  return mock.listen(0);
}

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When each chunk arrived, ms after the answer's head. */
  times: number[];
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const started = Date.now();
      const parts: Buffer[] = [];
      const times: number[] = [];
      res.on('data', (c: Buffer) => (parts.push(c), times.push(Date.now() - started)));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString(),
          times,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the node server streams items', () => {
  let base: string;
  beforeAll(async () => {
    base = await nodeMock();
  });

  it('an SSE operation answers valid framed events, chunked', async () => {
    const res = await get(`${base}/todos/events`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect(res.body).toMatch(
      /^event: (created|updated|deleted)\n(id: \d+\n)?(retry: \d+\n)?data: \{.*\}\n\n/,
    );
    const events = readEvents(res.body);
    expect(events).toHaveLength(3);
    for (const e of events) expect(JSON.parse(e.data as string)).toMatchObject({ id: expect.any(Number) });
    expect(streamProblem(stream('todoEvents', 'text/event-stream'), res.body)).toBeUndefined();
  });

  it('an SSE `data` with contentMediaType JSON is a JSON string of its contentSchema', async () => {
    const res = await get(`${base}/todos/feed`);
    const [first] = readEvents(res.body);
    expect(JSON.parse(first!.data as string)).toEqual({
      id: expect.any(Number),
      title: expect.any(String),
      done: expect.any(Boolean),
    });
    expect(streamProblem(stream('todoFeed', 'text/event-stream'), res.body)).toBeUndefined();
  });

  it('a JSON Lines operation answers one valid entry per line; Accept picks JSON text sequences', async () => {
    const res = await get(`${base}/log`);
    expect(res.headers['content-type']).toBe('application/jsonl');
    const lines = res.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(JSON.parse(line)).toEqual({
        timestamp: expect.any(String),
        level: expect.any(Number),
        message: expect.any(String),
      });
    expect(streamProblem(stream('readLog', 'application/jsonl'), res.body)).toBeUndefined();
    const seq = await get(`${base}/log`, { accept: 'application/json-seq' });
    expect(seq.headers['content-type']).toBe('application/json-seq');
    expect(readItems('json-seq', seq.body)).toHaveLength(3);
    expect(seq.body.startsWith('\x1e{')).toBe(true);
  });

  it("the document's example is streamed as written", async () => {
    const res = await get(`${base}/log/excerpt`);
    expect(res.body).toBe(
      '{"timestamp":"1985-04-12T23:20:50.52Z","level":1,"message":"Hi!"}\n' +
        '{"timestamp":"1985-04-12T23:20:51.37Z","level":1,"message":"Bye!"}\n',
    );
  });

  it('Prefer: example=NAME streams that example, dynamic=true generated items', async () => {
    const alarm = await get(`${base}/log/excerpt`, { prefer: 'example=alarm' });
    expect(alarm.headers['content-type']).toBe('application/jsonl');
    expect(alarm.body).toBe('{"timestamp":"1985-04-12T23:21:00Z","level":0,"message":"Fire!"}\n');
    const dynamic = await get(`${base}/log/excerpt`, { prefer: 'dynamic=true' });
    const lines = dynamic.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(dynamic.body).not.toContain('Hi!');
    expect(streamProblem(stream('readLogExcerpt', 'application/jsonl'), dynamic.body)).toBeUndefined();
  });

  it('JSON documented beside a stream stays the answer unless Accept names the stream', async () => {
    const json = await get(`${base}/todos`, { accept: '*/*' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(Array.isArray(JSON.parse(json.body))).toBe(true);
    const lines = await get(`${base}/todos`, { accept: 'application/jsonl' });
    expect(lines.headers['content-type']).toBe('application/jsonl');
    expect(lines.body.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('HEAD has the headers and no body', async () => {
    const res = await get(`${base}/todos/events`, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.body).toBe('');
  });

  it('settings give the item count (bounded) and the pause between items: each arrives as it is written', async () => {
    const paced = await nodeMock({ streams: { items: 4, intervalMs: 120 } });
    const res = await get(`${paced}/todos/events`);
    expect(readEvents(res.body)).toHaveLength(4);
    expect(res.times.length).toBeGreaterThanOrEqual(4);
    expect(res.times[0]!).toBeLessThan(100);
    expect(res.times[res.times.length - 1]!).toBeGreaterThanOrEqual(300);
  });
});

const SCENARIOS = path.join(__dirname, '..', '..', 'fixtures', 'scenarios', 'streams');

const LINE = '{"timestamp":"2026-01-01T00:00:00Z","level":1,"message":"a"}';

/** A server that answers what `override` takes, and passes everything else to the mock at `mock` (…/v1). */
async function inFrontOf(
  mock: string,
  override: (req: http.IncomingMessage, res: http.ServerResponse) => boolean,
): Promise<string> {
  const origin = new URL(mock).origin;
  const base = await listen((req, res) => {
    if (override(req, res)) return;
    const upstream = http.request(
      `${origin}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  return `${base}/v1`;
}

/** The runner's exit code against `target` with the stream scenarios, and its JSON report. */
async function runRunner(target: string): Promise<{ code: number; report: string }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'streams-')), 'report.json');
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const argv = ['--target', target, '--key', 'k', '--spec', FILE, '--scenarios', SCENARIOS];
    const code = await runner([...argv, '--report', `json=${file}`], {});
    return { code, report: fs.readFileSync(file, 'utf8') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('the runner judges each item of each stream', () => {
  it('exits 0 against the mock, every stream operation called and judged', async () => {
    const { code, report } = await runRunner(await nodeMock());
    expect(code).toBe(0);
    const parsed = JSON.parse(report) as {
      coverage: { observed: boolean }[];
      rules: { id: string; status: string }[];
    };
    expect(parsed.coverage.every((c) => c.observed)).toBe(true);
    expect(parsed.rules.find((r) => r.id === 'response.body-schema')?.status).toBe('pass');
    expect(parsed.rules.find((r) => r.id === 'streams.items')?.status).toBe('pass');
  });

  it('exits 1 against a server whose JSON Lines hold an invalid entry, naming the item', async () => {
    const target = await inFrontOf(await nodeMock(), (req, res) => {
      if (req.method !== 'GET' || req.url !== '/v1/log' || !/jsonl/.test(req.headers.accept ?? ''))
        return false;
      res.writeHead(200, { 'content-type': 'application/jsonl' });
      res.end(`${LINE}\n{"timestamp":"yesterday","level":1,"message":"b"}\n`);
      return true;
    });
    const { code, report } = await runRunner(target);
    expect(code).toBe(1);
    expect(report).toMatch(/readLog 200: application\/jsonl item 2 of 2: \/timestamp must match format/);
  });

  it('reads a stream that never ends for a bounded window and judges the whole items that came', async () => {
    const endless: http.ServerResponse[] = [];
    const target = await inFrontOf(await nodeMock(), (req, res) => {
      if (req.method !== 'GET' || req.url !== '/v1/todos/events') return false;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      endless.push(res);
      let n = 0;
      const tick = setInterval(() => {
        n++;
        // The third event is cut in the middle when the window closes; it is not judged.
        res.write(`event: created\nid: ${n}\ndata: {"id": ${n}, "title": "t", "done": false}\n\nevent: upd`);
        res.write('ated\n');
      }, 100);
      res.on('close', () => clearInterval(tick));
      return true;
    });
    const started = Date.now();
    const { code, report } = await runRunner(target);
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(JSON.parse(report).coverage.every((c: { observed: boolean }) => c.observed)).toBe(true);
    for (const res of endless) res.destroy();
  });
});

describe("the walk (the wild documents' judge) reads streams too", () => {
  it('every operation answers its documented stream, every item valid; a bad item is named', async () => {
    const inferred = inferResources(spec);
    if (!inferred.ok) throw new Error(inferred.error);
    const handler = await createFetchHandler({
      document: spec,
      keys: [{ key: 'walk-key-0123456789', plan: 'pro' }],
    });
    const walk = (fetch: typeof handler) =>
      walkDocument({
        spec,
        model: inferred.model,
        baseUrl: 'http://mock.test/v1',
        key: 'walk-key-0123456789',
        fetch,
      });
    const good = await walk(handler);
    expect(good.problems).toEqual([]);
    expect(spec.operations.filter((o) => !good.covered.has(o.operationId))).toEqual([]);
    const lying = Object.assign(
      async (request: Request) => {
        if (!request.url.endsWith('/todos/events')) return handler(request);
        const body =
          'event: created\ndata: {"id": 1, "title": "a", "done": false}\n\nevent: created\ndata: {"id": 2}\n\n';
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
      { deps: handler.deps },
    );
    expect((await walk(lying)).problems).toEqual([
      expect.stringMatching(/todoEvents.*text\/event-stream item 2 of 2: \/data\/title is required/),
    ]);
  });
});

describe('the fetch entry streams items', () => {
  it('SSE events and JSON lines, valid, as a ReadableStream', async () => {
    const handler = await createFetchHandler({ document, keys: [], config: { quiet: true } });
    const res = await handler(new Request('http://mock.local/v1/todos/events'));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.body).toBeInstanceOf(ReadableStream);
    const reader = res.body!.getReader();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read())
      chunks.push(new TextDecoder().decode(r.value));
    expect(chunks).toHaveLength(3);
    expect(streamProblem(stream('todoEvents', 'text/event-stream'), chunks.join(''))).toBeUndefined();
    const log = await handler(new Request('http://mock.local/v1/log'));
    const text = await log.text();
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    expect(streamProblem(stream('readLog', 'application/jsonl'), text)).toBeUndefined();
  });
});

/** The proxy's violations once it has judged something (a stream is judged just after it ends). */
async function violations(proxy: ReturnType<typeof createProxyServer>) {
  for (let i = 0; i < 50 && proxy.judge.snapshot().violations.length === 0; i++)
    await new Promise((r) => setTimeout(r, 20));
  return proxy.judge.snapshot().violations;
}

describe('the MSW entry streams items', () => {
  it('a fetch that MSW answers gets the SSE events as a stream, valid', async () => {
    const server = setupServer(...(await createMswHandlers({ document, keys: [], config: { quiet: true } })));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch('http://localhost:4010/v1/todos/events');
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const body = await res.text();
      expect(readEvents(body)).toHaveLength(3);
      expect(streamProblem(stream('todoEvents', 'text/event-stream'), body)).toBeUndefined();
    } finally {
      server.close();
    }
  });
});

describe('the proxy judges each item', () => {
  it('an upstream that sends an invalid event is reported by the proxy and by --judge-har, naming the item', async () => {
    const upstream = await listen((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: created\nid: 1\ndata: {"id": 1, "title": "a", "done": false}\n\n');
      res.write('event: created\nid: 2\ndata: {"id": 2, "title": "", "done": "no"}\n\n');
      res.end('event: updated\nid: 3\ndata: {"id": 1, "title": "b", "done": true}\n\n');
    });
    const proxy = createProxyServer({
      spec,
      upstream: new URL(`${upstream}/v1`),
      mode: 'report',
      timeoutMs: 2000,
      maxBodyBytes: 1 << 20,
      preserveHost: false,
    });
    const base = await proxy.listen(0, '127.0.0.1');
    try {
      const res = await get(`${base}/todos/events`);
      expect(readEvents(res.body)).toHaveLength(3);
      // Passed on as it came; judged when it ended.
      expect(res.headers['contract-judged']).toMatch(/stream/);
      const [violation] = await violations(proxy);
      expect(violation).toMatchObject({ rule: 'response.body-schema', operationId: 'todoEvents' });
      expect(violation!.message).toMatch(
        /text\/event-stream item 2 of 3: \/data\/title must NOT have fewer than 1/,
      );
      // The same traffic saved as a HAR and judged offline: the same finding, exit 1.
      const har = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'streams-')), 'traffic.har');
      fs.writeFileSync(har, JSON.stringify(toHar(proxy.judge.recent(), '0')));
      const json = `${har}.json`;
      const quiet = [process.stdout, process.stderr].map((s) =>
        jest.spyOn(s, 'write').mockImplementation(() => true),
      );
      try {
        expect(await runJudgeHar(['--judge-har', har, '--spec', FILE, '--report', `json=${json}`])).toBe(1);
      } finally {
        for (const q of quiet) q.mockRestore();
      }
      expect(fs.readFileSync(json, 'utf8')).toMatch(
        /text\/event-stream item 2 of 3: \/data\/title must NOT have fewer/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('passes a stream that never ends on as it comes, and judges the items that came when the client goes', async () => {
    const upstream = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const tick = setInterval(() => {
        n++;
        const title = n === 2 ? '' : 't';
        res.write(`event: created\nid: ${n}\ndata: {"id": ${n}, "title": "${title}", "done": false}\n\n`);
      }, 50);
      res.on('close', () => clearInterval(tick));
    });
    const proxy = createProxyServer({
      spec,
      upstream: new URL(`${upstream}/v1`),
      mode: 'enforce',
      timeoutMs: 300,
      maxBodyBytes: 1 << 20,
      preserveHost: false,
    });
    const base = await proxy.listen(0, '127.0.0.1');
    try {
      // Longer than --proxy-timeout-ms: a stream is not an upstream that fails to answer.
      const events = await new Promise<string>((resolve, reject) => {
        const req = http.get(`${base}/todos/events`, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            if (readEvents(text).length >= 12) {
              req.destroy();
              resolve(text);
            }
          });
        });
        req.on('error', reject);
      });
      expect(readEvents(events).length).toBeGreaterThanOrEqual(12);
      const [violation] = await violations(proxy);
      expect(violation).toMatchObject({ rule: 'response.body-schema', operationId: 'todoEvents' });
      expect(violation!.message).toMatch(
        /text\/event-stream item 2 of \d+: \/data\/title must NOT have fewer/,
      );
    } finally {
      await proxy.close();
    }
  });
});
