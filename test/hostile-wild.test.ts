/**
 * Issue 21, "hostile input on any document": what the pet store's fuzzing does (raw sockets, chunked framing,
 * odd headers, huge and truncated bodies, pipelining), against every document in fixtures/specs/wild/. Each
 * property checks one answer per request, the document's error shape on a 4xx, never a 5xx, and nothing stored
 * by a refused request. Runs per document stay small (FUZZ_RUNS, default 20) so the file stays well under a
 * minute; fast-check prints the seed and the shrunk case when a property fails.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { createMockServer, type MockServer } from '../mock/node/index';
import { documentedResponse, type OperationSpec } from '../spec/compile';

const WILD = path.join(__dirname, '..', 'fixtures', 'specs', 'wild');
const DOCUMENTS = fs.readdirSync(WILD).filter((f) => /\.(ya?ml|json)$/.test(f));
const KEY = 'hostile-wild-enterprise-key';
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const params: fc.Parameters<unknown> = {
  numRuns: RUNS,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};

/** Every answer on one connection after `bytes` were written and the write side closed. */
function exchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 4000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.end(bytes);
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Split what a connection received into answers (Content-Length framed, as the mock always sends). */
function answers(text: string): Answer[] {
  const out: Answer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    out.push({
      status: Number(statusLine.slice(9, 12)),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe.each(DOCUMENTS)('%s', (name) => {
  let mock: MockServer;
  let port: number;
  let prefix: string;
  let writes: OperationSpec[];
  const auth = (op: OperationSpec | undefined): string => {
    // Every scheme the document may use gets the key where it looks for it.
    if (!op?.requiresAuth) return '';
    return `Authorization: Bearer ${KEY}\r\nX-API-Key: ${KEY}\r\napi_key: ${KEY}\r\nX-Api-Key: ${KEY}\r\n`;
  };
  const stored = async (): Promise<string> => {
    const all = await Promise.all(mock.deps.model.resources.map((r) => mock.deps.records.list(r.name)));
    return JSON.stringify(all);
  };

  beforeAll(async () => {
    mock = await createMockServer({
      specPath: path.join(WILD, name),
      seedFile: null,
      keys: [{ key: KEY, plan: 'enterprise', perMinute: 1e9, perDay: 1e12 }],
      admin: false,
    });
    const base = new URL(await mock.listen(0));
    port = Number(base.port);
    prefix = base.pathname.replace(/\/+$/, '');
    writes = mock.deps.spec.operations.filter((o) => o.requestBody && !o.path.includes('{'));
  });
  afterAll(() => mock.close());

  /** A 4xx is the document's error shape: JSON, valid against the documented error schema where one is given. */
  const judge = (a: Answer, op: OperationSpec | undefined): void => {
    expect([a.status, a.status < 500]).toEqual([a.status, true]);
    if (a.status < 400) return;
    expect(a.headers['content-type']).toMatch(/^application\/([\w.+-]+\+)?json/);
    const body: unknown = JSON.parse(a.body);
    const documented = op ? documentedResponse(op, a.status) : undefined;
    if (documented?.validateBody) expect([a.body, documented.validateBody(body)]).toEqual([a.body, true]);
    expect(a.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  };

  it('answers arbitrary bodies to every create once, never 5xx, storing nothing when it refuses', async () => {
    // Every wild document has a create to hammer: a test with nothing to send would pass without a check.
    expect(writes.length).toBeGreaterThan(0);
    const body = fc.oneof(
      fc.json().map((t) => Buffer.from(t)),
      fc.string().map((t) => Buffer.from(t)),
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
      fc.json().map((t) => Buffer.from(t.slice(0, Math.max(0, t.length - 1)))), // truncated
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), body, fc.boolean(), async (op, bytes, chunked) => {
        const before = await stored();
        const framing = chunked
          ? `Transfer-Encoding: chunked\r\n\r\n${bytes.length.toString(16)}\r\n`
          : `Content-Length: ${bytes.length}\r\n\r\n`;
        const head = `${op.method.toUpperCase()} ${prefix}${op.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${auth(op)}Connection: close\r\n${framing}`;
        const tail = chunked ? '\r\n0\r\n\r\n' : '';
        const got = answers(
          await exchange(port, Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)])),
        );
        expect(got).toHaveLength(1);
        const [answer] = got as [Answer];
        judge(answer, op);
        if (answer.status >= 400) expect(await stored()).toBe(before);
      }),
      params,
    );
  });

  it('answers malformed chunked framing, odd headers and pipelined requests at most once each', async () => {
    const ops = mock.deps.spec.operations;
    const request = fc.record({
      op: fc.constantFrom(...ops),
      key: fc.boolean(),
      header: fc.constantFrom('', 'X-Odd: \x01\x7f\r\n', 'Content-Length: abc\r\n', 'Accept: */*;q=x\r\n'),
      chunk: fc.constantFrom(
        '',
        '\r\n\r\n',
        'FFFFFFFFFFFFFFFFFFFF\r\nx\r\n',
        'zz\r\n',
        '3\r\nabc\r\n0\r\n\r\n',
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 3 }), async (list) => {
        const before = await stored();
        const bytes = list
          .map(({ op, key, header, chunk }) => {
            const target = `${prefix}${op.path.replace(/\{[^}]+\}/g, '1')}`;
            const framing = chunk ? 'Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n' : '';
            return `${op.method.toUpperCase()} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${key ? auth(op) : ''}${header}${framing}\r\n${chunk}`;
          })
          .join('');
        const got = answers(await exchange(port, Buffer.from(bytes, 'latin1')));
        expect(got.length).toBeLessThanOrEqual(list.length);
        for (const a of got) judge(a, undefined);
        // Nothing here is a valid create: every body is malformed or absent.
        if (got.every((a) => a.status >= 400)) expect(await stored()).toBe(before);
      }),
      params,
    );
  });

  it('answers arbitrary paths and methods with the error shape, never 5xx', async () => {
    const target = fc.oneof(
      fc.webPath().map((p) => `${prefix}${p}`),
      fc.string({ maxLength: 40 }).map((s) => `${prefix}/${encodeURIComponent(s)}`),
      fc.constantFrom(`${prefix}/%`, `${prefix}/%E0%A4%A`, `${prefix}/..%2f..%2fetc`, '*'),
    );
    const method = fc.constantFrom(
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'HEAD',
      'OPTIONS',
      'TRACE',
      'FOO',
    );
    await fc.assert(
      fc.asyncProperty(method, target, async (m, t) => {
        const got = answers(
          await exchange(
            port,
            Buffer.from(`${m} ${t} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
          ),
        );
        expect(got.length).toBeLessThanOrEqual(1);
        for (const a of got) if (m !== 'HEAD') judge(a, undefined);
      }),
      params,
    );
  });
});
