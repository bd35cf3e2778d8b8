/**
 * Issue 13, "safe to share": the HTTP edge cases that slipped past the Error contract (points 3, 6, 8, 10, 11
 * and IPv6 callers), tried as an outside client would, over real sockets where a library would hide the bytes.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createKeyring } from '../mock/core/keys';
import { addressSubject } from '../mock/core/stages/identify';
import { bearer, expectError, harness, RATE_HEADERS, type Harness } from './support/mock-harness';

/** Write `bytes` on one connection and collect everything the server sends until it closes (or `ms` pass). */
function exchange(
  h: Harness,
  bytes: string,
  ms = 3000,
): Promise<{ text: string; afterMs: number; firstAnswerMs: number }> {
  const { port } = h.mock.server.address() as AddressInfo;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let firstAnswerMs = Infinity;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, afterMs: Date.now() - started, firstAnswerMs });
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      if (firstAnswerMs === Infinity && text.includes('\r\n\r\n')) firstAnswerMs = Date.now() - started;
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes);
  });
}

/** The status codes of every answer in a raw byte stream, in order. */
const statuses = (text: string): number[] =>
  [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

const names = async (h: Harness): Promise<string[]> =>
  (await h.http.get('/v1/categories').set(bearer('ent-key'))).body.map((c: { name: string }) => c.name);

describe('records are bounded per resource (point 3)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ maxRecords: 5 });
  });
  afterAll(() => h.mock.close());

  it('a create past the cap is a 409 record_limit Error and stores nothing; a delete-free store stays at the cap', async () => {
    const before = await names(h);
    const room = 5 - before.length;
    expect(room).toBeGreaterThan(0);
    for (let i = 0; i < room; i++) {
      const res = await h.http
        .post('/v1/categories')
        .set(bearer('ent-key'))
        .send({ name: `fill-${i}` });
      expect(res.status).toBe(201);
    }
    const refused = await h.http.post('/v1/categories').set(bearer('ent-key')).send({ name: 'one-too-many' });
    expectError(refused, 409, 'record_limit');
    const after = await names(h);
    expect(after).toHaveLength(5);
    expect(after).not.toContain('one-too-many');
  });
});

describe('Expect and HEAD (point 10)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.mock.close());

  it('Expect other than 100-continue is a 417 Error with the rate-limit headers, and nothing is stored', async () => {
    const before = await names(h);
    const body = JSON.stringify({ name: 'expected' });
    const { text } = await exchange(
      h,
      'POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ent-key\r\n' +
        `Content-Type: application/json\r\nExpect: foo\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(statuses(text)).toEqual([417]);
    const [head = '', payload = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^content-type: application\/json/im);
    for (const h of RATE_HEADERS) expect(head).toMatch(new RegExp(`^${h}: \\d+`, 'im'));
    expect(head).toMatch(/^ratelimit-policy: /im);
    expect(JSON.parse(payload)).toEqual({
      code: 'expectation_failed',
      message: expect.any(String),
      status: 417,
    });
    expect(await names(h)).toEqual(before);
  });

  it('HEAD works wherever GET does: same status and headers, no body', async () => {
    const get = await h.http.get('/v1/categories').set(bearer('ent-key'));
    const head = await h.http.head('/v1/categories').set(bearer('ent-key'));
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    for (const name of RATE_HEADERS) expect(head.headers[name]).toMatch(/^\d+$/);
    expect(head.text ?? '').toBe('');
    // A refused HEAD is refused as its GET would be, still without a body.
    const anonymous = await h.http.head('/v1/categories');
    expect(anonymous.status).toBe(401);
    expect(anonymous.text ?? '').toBe('');
  });

  it('HEAD where no GET exists is a 405 naming the methods there', async () => {
    const { text } = await exchange(
      h,
      'HEAD /v1/nowhere-at-all HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ent-key\r\nConnection: close\r\n\r\n',
    );
    expect(statuses(text)).toEqual([404]);
    expect(text.split('\r\n\r\n')[1]).toBe('');
  });
});

describe('identity and rate limit before the body (point 8)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.mock.close());

  it('a caller without a key is refused at once, without waiting for the body it announced', async () => {
    const { text, firstAnswerMs } = await exchange(
      h,
      'POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000000\r\n\r\n{"name":"',
      2000,
    );
    expect(statuses(text)).toEqual([401]);
    expect(firstAnswerMs).toBeLessThan(1000);
  });

  it('a caller over its limit is refused at once too (429), body unread', async () => {
    for (let i = 0; i < 60; i++) await h.http.get('/v1/categories').set(bearer('free-key-2'));
    const { text, firstAnswerMs } = await exchange(
      h,
      'POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer free-key-2\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"name":"',
      2000,
    );
    expect(statuses(text)).toEqual([429]);
    expect(firstAnswerMs).toBeLessThan(1000);
  });
});

describe('an error about a later request never replaces an earlier answer (point 11)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.mock.close());

  it('a valid POST followed by malformed bytes on the same connection: 201 first, then the 400, stored once', async () => {
    const body = JSON.stringify({ name: 'pipelined' });
    const { text } = await exchange(
      h,
      'POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ent-key\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        'THIS IS NOT HTTP\r\n\r\n',
    );
    expect(statuses(text)).toEqual([201, 400]);
    expect(text).toContain('"name":"pipelined"');
    expect((await names(h)).filter((n) => n === 'pipelined')).toHaveLength(1);
  });
});

describe('callers: labels and IPv6 (point 6, bounded memory)', () => {
  it('a key is labelled by its name in the keys file, else by an HMAC with a per-process secret', async () => {
    const named = await createKeyring([{ key: 'a-long-enough-key-1', plan: 'pro', name: 'team-web' }]);
    expect(named.find('a-long-enough-key-1')?.label).toBe('pro:team-web');
    const first = await createKeyring([{ key: 'a-long-enough-key-2', plan: 'free' }]);
    const second = await createKeyring([{ key: 'a-long-enough-key-2', plan: 'free' }]);
    const label = first.find('a-long-enough-key-2')?.label;
    expect(label).toMatch(/^free:[0-9a-f]{8}$/);
    // Not the unsalted SHA-256 of the key that could be guessed offline.
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('a-long-enough-key-2'));
    const unsalted = Buffer.from(digest).toString('hex').slice(0, 8);
    expect(label).not.toBe(`free:${unsalted}`);
    // The same process keeps one secret: one key, one label.
    expect(second.find('a-long-enough-key-2')?.label).toBe(label);
  });

  it('IPv6 callers share one anonymous limit per /64; IPv4 and mapped IPv4 per address', () => {
    expect(addressSubject('2001:db8:1:2::1')).toBe(addressSubject('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(addressSubject('2001:db8:1:2::1')).toBe(addressSubject('2001:0db8:0001:0002:0:0:0:9'));
    expect(addressSubject('2001:db8:1:2::1')).not.toBe(addressSubject('2001:db8:1:3::1'));
    expect(addressSubject('::ffff:192.0.2.7')).toBe(addressSubject('192.0.2.7'));
    expect(addressSubject('192.0.2.7')).not.toBe(addressSubject('192.0.2.8'));
  });
});
