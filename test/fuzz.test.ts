/**
 * Property-based fuzzing of the mock over real HTTP (issue 5, "Robustness"): arbitrary bodies, Authorization
 * values, paths and methods. fast-check picks a random seed per run and prints it (with the shrunk
 * counterexample and `{ seed, path }` to replay it) when a property fails; set FUZZ_SEED to replay a whole run.
 *
 * Rate limits: requests go out with an enterprise key whose limits are never reached, and the mock runs on a
 * clock this test moves a day forward before every anonymous request, so the limiter is exercised (headers)
 * but never rejects, except in the property about limits.
 */
import net from 'node:net';
import fc from 'fast-check';
import { createMockServer, type MockServer } from '../mock/node/index';

const ENT_KEY = 'fuzz-enterprise-key';
const FREE_KEY = 'fuzz-free-key';
const KEYS = [
  { key: ENT_KEY, plan: 'enterprise' as const, perMinute: 1e9, perDay: 1e12 },
  { key: FREE_KEY, plan: 'free' as const },
];
const DAY_MS = 86_400_000;
const RUNS = 200;
const seedEnv = process.env.FUZZ_SEED;
const params: fc.Parameters<unknown> = { numRuns: RUNS, ...(seedEnv ? { seed: Number(seedEnv) } : {}) };

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let now = Date.UTC(2026, 10, 22, 12, 0, 10);
let mock: MockServer;
let base: string;
let port: number;

beforeAll(async () => {
  mock = await createMockServer({
    keys: KEYS,
    seed: { categories: [{ name: 'dog' }, { name: 'cat', description: 'Cats' }] },
    clock: { now: () => now },
    admin: false, // POST /_mock/reset would be an accepted request that changes the list
  });
  base = await mock.listen(0);
  port = Number(new URL(base).port);
});
afterAll(() => mock.close());

/** Move the mock's clock a day on: every minute and day window (and any ban) starts afresh. */
const nextDay = () => (now += DAY_MS + 60_000);

/** The stored list as the store holds it, serialised (the store hands out its live array). */
const storedList = async (): Promise<string> => JSON.stringify(await mock.deps.records.list('categories'));

/** Send bytes as they are (paths fetch would refuse or normalise) and read until the server closes. */
function rawRequest(head: string, body: Buffer = Buffer.alloc(0)): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer in 5 s to ${JSON.stringify(head)}`)));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split === -1 ? text.length : split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? NaN);
      resolve({ status, headers, body: split === -1 ? '' : text.slice(split + 4) });
    });
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
}

function requestHead(method: string, target: string, headers: Record<string, string>): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The contract every answer keeps: §7 Error body on non-2xx, §8 the three rate-limit headers, no 5xx. */
function expectContractShape(res: RawResponse, method = 'GET'): void {
  expect(res.status).toBeGreaterThanOrEqual(200);
  expect(res.status).toBeLessThan(500);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(res.headers[h]).toMatch(/^\d+$/);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (res.status >= 300 && method !== 'HEAD') {
    const body: unknown = JSON.parse(res.body);
    expect(body).toEqual({ code: expect.any(String), message: expect.any(String), status: res.status });
  }
}

// ---- generators -------------------------------------------------------------------------------------------

/** Methods Node's HTTP parser knows (anything else is refused by Node before the mock sees it; see below). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE'];

/** Path segments: spec words, dot segments, percent-encodings (valid, broken, overlong), Unicode, bytes. */
const segment = fc.oneof(
  fc.constantFrom('v1', 'categories', 'pets', 'store', 'orders', '_mock', 'state', '.', '..', '', '1'),
  fc.constantFrom('%E0%A4%A', '%', '%zz', '%00', '%2F', '%C0%AF', '%FF', '%E0%A4%A8', '%25'),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent),
  fc.stringMatching(/^[!-~]{0,12}$/).map((s) => s.replace(/[?#]/g, '')),
);
const rawPath = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.option(fc.stringMatching(/^[ -~]{0,10}$/)))
  .map(([inV1, segments, query]) => {
    const path = `/${inV1 ? 'v1/' : ''}${segments.join('/')}`;
    return query === null ? path : `${path}?${query.replace(/[ #]/g, '')}`;
  });

const isPolicyValid = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (!Object.keys(o).every((k) => k === 'name' || k === 'description')) return false;
  const len = (s: string) => [...s].length; // ajv counts code points
  if (typeof o.name !== 'string' || len(o.name) < 1 || len(o.name) > 200) return false;
  return o.description === undefined || (typeof o.description === 'string' && len(o.description) <= 2000);
};

const validNewCategory = fc.record(
  {
    name: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
    description: fc.string({ unit: 'binary', maxLength: 300 }),
  },
  { requiredKeys: ['name'] },
);

/** Near misses of a NewCategory: every way the contract or the mock's documented policy says no. */
const invalidNewCategory: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ description: fc.string() }, { requiredKeys: [] }),
  fc.record({ name: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string())) }),
  fc.record({ name: fc.string({ minLength: 1 }), id: fc.jsonValue() }),
  fc.record({ name: fc.string({ minLength: 1 }), extra: fc.jsonValue() }),
  fc.constant({ name: '' }),
  fc.string({ minLength: 201, maxLength: 260 }).map((name) => ({ name })),
  fc.record({ name: fc.string({ minLength: 1 }), description: fc.oneof(fc.integer(), fc.constant(null)) }),
  fc.oneof(fc.array(fc.jsonValue()), fc.string(), fc.double(), fc.constant(null)),
  fc.constant(JSON.parse('{"__proto__": {"name": "x"}}') as unknown),
);

// ---- properties -------------------------------------------------------------------------------------------

describe('fuzzing the mock over HTTP (fast-check)', () => {
  it('arbitrary methods and raw paths: never a 5xx, always JSON, Error shape and the rate-limit headers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), rawPath, async (method, path) => {
        const before = await storedList();
        const res = await rawRequest(requestHead(method, path, { Authorization: `Bearer ${ENT_KEY}` }));
        expectContractShape(res, method);
        if (method !== 'POST') expect(await storedList()).toBe(before);
      }),
      params,
    );
  });

  it('arbitrary Authorization values: a 401 Error (or 2xx for the one valid key), never a 5xx', async () => {
    const scheme = fc.oneof(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', ''), fc.string());
    const token = fc.oneof(
      fc.constantFrom(ENT_KEY, FREE_KEY.toUpperCase(), `${ENT_KEY}x`, ''),
      fc.string({ unit: 'binary-ascii' }),
      fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) }),
    );
    const auth = fc.oneof(
      fc.tuple(scheme, fc.constantFrom(' ', '  ', '\t', ''), token).map(([s, sp, t]) => `${s}${sp}${t}`),
      fc.string({ unit: 'binary-ascii', maxLength: 100 }),
    );
    await fc.assert(
      fc.asyncProperty(auth, async (authorization) => {
        // Only bytes a header value may hold (RFC 9110 field-value: HTAB, SP, VCHAR, obs-text); control bytes
        // are refused by Node's parser before the mock runs (see the parser-refusal properties below).
        const value = [...authorization].filter((ch) => ch === '\t' || (ch >= ' ' && ch !== '\x7f')).join('');
        nextDay();
        const res = await rawRequest(requestHead('GET', '/v1/categories', { Authorization: value }));
        expectContractShape(res);
        const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
        const space = trimmed.indexOf(' ');
        const valid =
          space !== -1 &&
          trimmed.slice(0, space).toLowerCase() === 'bearer' &&
          trimmed.slice(space + 1).trim() === ENT_KEY;
        expect(res.status).toBe(valid ? 200 : 401);
      }),
      params,
    );
  });

  it('a valid NewCategory is always stored, exactly once, as sent', async () => {
    await fc.assert(
      fc.asyncProperty(validNewCategory, async (input) => {
        const before = (await mock.deps.records.list('categories')).length;
        const res = await fetch(`${base}/categories`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ENT_KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(input),
        });
        expect(res.status).toBe(201);
        const created = (await res.json()) as { id: number };
        expect(created).toEqual({ ...input, id: expect.any(Number) });
        const list = await mock.deps.records.list('categories');
        expect(list.length).toBe(before + 1);
        expect(list[list.length - 1]).toEqual(created);
        expect(list.filter((c) => c.id === created.id)).toHaveLength(1);
      }),
      params,
    );
  });

  it('an invalid NewCategory is never stored, and the list is unchanged (400 with the Error shape)', async () => {
    await fc.assert(
      fc.asyncProperty(invalidNewCategory, async (input) => {
        fc.pre(!isPolicyValid(input));
        const before = await storedList();
        const body = Buffer.from(JSON.stringify(input) ?? 'null');
        const res = await rawRequest(
          requestHead('POST', '/v1/categories', {
            Authorization: `Bearer ${ENT_KEY}`,
            'Content-Type': 'application/json',
            'Content-Length': String(body.length),
          }),
          body,
        );
        expectContractShape(res, 'POST');
        expect(res.status).toBe(400);
        expect(await storedList()).toBe(before);
      }),
      params,
    );
  });

  it('arbitrary JSON and non-JSON bodies and content types: stored iff valid, else a 4xx and no change', async () => {
    const jsonBody = fc.jsonValue().map((v) => ({ bytes: Buffer.from(JSON.stringify(v)), value: v }));
    const anyBytes = fc
      .uint8Array({ maxLength: 300 })
      .map((b) => ({ bytes: Buffer.from(b), value: undefined }));
    const text = fc.string({ unit: 'binary', maxLength: 200 }).map((s) => ({ bytes: Buffer.from(s) }));
    const contentType = fc.oneof(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.x+json'),
      fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data', ''),
      fc.stringMatching(/^[!-~]{0,30}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          jsonBody,
          anyBytes,
          text,
          validNewCategory.map((v) => ({
            bytes: Buffer.from(JSON.stringify(v)),
            value: v as unknown,
          })),
        ),
        contentType,
        fc.boolean(),
        async (body, type, withKey) => {
          if (!withKey) nextDay();
          const before = await storedList();
          const headers: Record<string, string> = { 'Content-Length': String(body.bytes.length) };
          if (withKey) headers.Authorization = `Bearer ${ENT_KEY}`;
          if (type !== '') headers['Content-Type'] = type;
          const res = await rawRequest(requestHead('POST', '/v1/categories', headers), body.bytes);
          expectContractShape(res, 'POST');
          if (res.status === 201) {
            const list = JSON.parse(await storedList()) as unknown[];
            expect(list.slice(0, -1)).toEqual(JSON.parse(before));
            expect(isPolicyValid(JSON.parse(body.bytes.toString('utf8')))).toBe(true);
          } else {
            expect(await storedList()).toBe(before);
            if (!withKey) expect(res.status).toBe(401); // §5 before validation
          }
        },
      ),
      params,
    );
  });

  // Bytes Node's own HTTP parser refuses (control bytes or non-ASCII in the target, unknown methods, control
  // bytes in a header value) never reach the pipeline: the mock's clientError handler must answer them.
  const hostileBytes = fc.string({
    unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: 12,
  });
  const hostileRequest = fc.oneof(
    fc
      .tuple(rawPath, hostileBytes)
      .map(([p, b]) => requestHead('GET', `${p}${b.replace(/[\r\n ]/g, '')}`, {})),
    fc
      .stringMatching(/^[A-Z][A-Z-]{0,11}$/)
      .filter((m) => m !== 'CONNECT')
      .map((m) => requestHead(m, '/v1/categories', {})),
    hostileBytes.map((b) =>
      requestHead('GET', '/v1/categories', { Authorization: `Bearer ${b.replace(/[\r\n]/g, '')}` }),
    ),
  );

  // Found by this property: Node's bare `400 Bad Request` (no Error body, no X-RateLimit-*) for these; the mock
  // now answers them itself (createClientErrorHandler in mock/app.ts).
  it('hostile bytes: never a 5xx or a hang; the Error shape and the headers even when Node refuses the bytes; still serving', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (head) => {
        nextDay();
        expectContractShape(await rawRequest(head), head.slice(0, head.indexOf(' ')));
        const after = await fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${ENT_KEY}` } });
        expect(after.status).toBe(200);
        await after.arrayBuffer();
      }),
      params,
    );
  });

  it('limits: however the requests mix, a fresh free key gets exactly min(n, 60) non-429 answers a minute', async () => {
    const kind = fc.constantFrom('list', 'bad-post', 'unknown-path', 'wrong-method');
    await fc.assert(
      fc.asyncProperty(fc.array(kind, { minLength: 1, maxLength: 80 }), async (kinds) => {
        nextDay();
        await mock.deps.limiter.reset();
        const auth = `Bearer ${FREE_KEY}`;
        const send = (k: string) =>
          k === 'list'
            ? fetch(`${base}/categories`, { headers: { Authorization: auth } })
            : k === 'bad-post'
              ? fetch(`${base}/categories`, {
                  method: 'POST',
                  headers: { Authorization: auth, 'Content-Type': 'application/json' },
                  body: '{"name": 1}',
                })
              : k === 'unknown-path'
                ? fetch(`${base}/nowhere`, { headers: { Authorization: auth } })
                : fetch(`${base}/categories`, { method: 'DELETE', headers: { Authorization: auth } });
        const answers = await Promise.all(kinds.map(send));
        await Promise.all(answers.map((r) => r.arrayBuffer()));
        const admitted = answers.filter((r) => r.status !== 429).length;
        expect(admitted).toBe(Math.min(kinds.length, 60));
        for (const r of answers) expect(r.status).toBeLessThan(500);
      }),
      { ...params, numRuns: 40 },
    );
  });
});
