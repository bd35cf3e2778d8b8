/**
 * Issue 13, "safe to share": the admin and inspector routes against cross-site pages, DNS rebinding and
 * exposed listeners; operational routes never counted; the inspector stream bounded.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import { createLogger } from '../mock/core/log';
import { maskSecrets, maskUrl } from '../spec/redact';
import { addressSubject } from '../mock/core/stages/identify';
import type { EventSink } from '../mock/core/context';
import { createStreamState, streamSnapshots } from '../mock/node/ui/events';
import { isLoopback, localHost } from '../mock/node/routes';
import type { NodeDeps } from '../mock/node/deps';
import { bearer, expectError, harness, RATE_HEADERS, type Harness } from './support/mock-harness';

const EVIL = 'https://evil.example';
const names = async (h: Harness): Promise<string[]> =>
  (await h.http.get('/v1/categories').set(bearer('ent-key'))).body.map((c: { name: string }) => c.name);

/** Open a stream with raw http; collects its `data:` events until closed. */
function openStream(
  h: Harness,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: http.IncomingHttpHeaders;
  events: unknown[];
  text: () => string;
  res: http.IncomingMessage;
  ended: Promise<void>;
}> {
  const { port } = h.mock.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/_mock/inspector/events', headers }, (res) => {
      let text = '';
      const events: unknown[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        let end;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const event = text.slice(0, end);
          text = text.slice(end + 2);
          if (event.startsWith('data: ')) events.push(JSON.parse(event.slice(6)));
          else if (!event.startsWith('retry') && !event.startsWith(':')) events.push(event);
        }
      });
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
      });
      resolve({ status: res.statusCode ?? 0, headers: res.headers, events, text: () => text, res, ended });
    });
    req.on('error', reject);
  });
}

const until = async (check: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('admin and inspector routes on a loopback listener without a token', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ banThreshold: 3, banSeconds: 300 });
  });
  afterAll(() => h.mock.close());
  beforeEach(() => h.mock.reset());

  it.each(['/_mock/state', '/_mock/inspector', '/_mock/inspector/data'])(
    'GET %s sends no CORS headers, whatever the origin',
    async (path) => {
      const res = await h.http.get(path).set('Origin', EVIL);
      expect(res.status).toBe(200);
      expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
    },
  );

  it('the API itself still answers CORS as configured', async () => {
    const res = await h.http.get('/v1/categories').set(bearer('free-key')).set('Origin', EVIL);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('the live stream sends no CORS headers', async () => {
    const s = await openStream(h, { Origin: EVIL });
    expect(s.status).toBe(200);
    expect(Object.keys(s.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
    s.res.destroy();
  });

  it.each(['/_mock/reset', '/_mock/state', '/_mock/inspector/data'])(
    'a CORS preflight for %s is refused: 405 Error, no CORS headers',
    async (path) => {
      const res = await h.http
        .options(path)
        .set('Origin', EVIL)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'x-mock-admin');
      expectError(res, 405, 'method_not_allowed');
      expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
    },
  );

  it('POST /_mock/reset as a cross-site form would send it is refused, and nothing is reset', async () => {
    await h.http.post('/v1/categories').set(bearer('ent-key')).send({ name: 'keep me' }).expect(201);
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await h.http.post('/_mock/reset').set('Origin', EVIL).set('Content-Type', type).send('a=1');
      expectError(res, 403, 'forbidden');
      expect(res.body.message).toMatch(/X-Mock-Admin: 1/);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(await names(h)).toContain('keep me');
    const ok = await h.http.post('/_mock/reset').set('X-Mock-Admin', '1');
    expect(ok.status).toBe(200);
    expect(await names(h)).not.toContain('keep me');
  });

  it('answers admin and inspector data only to requests addressed to localhost or an IP (DNS rebinding)', async () => {
    for (const [method, path] of [
      ['post', '/_mock/reset'],
      ['get', '/_mock/state'],
      ['get', '/_mock/inspector/data'],
    ] as const) {
      const res = await h.http[method](path).set('Host', 'evil.example:4010').set('X-Mock-Admin', '1');
      expectError(res, 403, 'forbidden');
    }
    expect((await h.http.get('/_mock/state').set('Host', 'localhost:4010')).status).toBe(200);
    expect((await h.http.get('/_mock/state').set('Host', '[::1]:4010')).status).toBe(200);
  });

  it('a local user cannot lock themselves out: the reset answers a banned key, uncounted, and lifts the ban (issue 31)', async () => {
    for (let i = 0; i < 60; i++) await h.http.get('/v1/categories').set(bearer('free-key'));
    for (let i = 0; i < 3; i++) await h.http.get('/v1/categories').set(bearer('free-key'));
    expect((await h.http.get('/v1/categories').set(bearer('free-key'))).body.code).toBe('key_banned');
    const reset = await h.http.post('/_mock/reset').set(bearer('free-key')).set('X-Mock-Admin', '1');
    expect(reset.status).toBe(200);
    expect(reset.headers['x-ratelimit-remaining']).toBeUndefined();
    expect((await h.http.get('/v1/categories').set(bearer('free-key'))).status).toBe(200);
  });
});

describe('operational routes are never counted nor banned', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ banThreshold: 3, banSeconds: 300 });
  });
  afterAll(() => h.mock.close());

  it('the front door, health, the reference, its assets, the spec and the inspector answer an address that is limited and banned', async () => {
    const anonymous = h.mock.deps.anonymous;
    const used = () => h.mock.deps.limiter.peek(addressSubject('127.0.0.1'), anonymous, h.clock.now());
    for (let i = 0; i < 60; i++) await h.http.get('/v1/categories');
    expectError(await h.http.get('/v1/categories'), 429, 'rate_limited');
    const spent = await used();
    const paths = [
      '/_mock/health',
      '/_mock/docs',
      '/_mock/docs/openapi.json',
      '/_mock/ui/swagger-ui.css',
      '/_mock/ui/inspector.js',
      '/openapi.json',
      '/openapi.yaml',
      '/_mock/inspector',
      '/_mock/inspector/data',
    ];
    for (const path of paths) {
      const res = await h.http.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    expect((await h.http.head('/_mock/health')).status).toBe(200);
    const frontDoor = await h.http.get('/').set('Accept', 'text/html');
    expect(frontDoor.status).toBe(200);
    expect(frontDoor.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(await used()).toEqual(spent);
    // Now ban the address: the operational routes still answer.
    for (let i = 0; i < 3; i++) await h.http.get('/v1/categories');
    expectError(await h.http.get('/v1/categories'), 429, 'key_banned');
    for (const path of paths) expect((await h.http.get(path)).status).toBe(200);
    expect((await h.http.get('/').set('Accept', 'text/html')).status).toBe(200);
  });
});

describe('an exposed listener (any address but loopback)', () => {
  const expose = (h: Harness): void => {
    const ui = (h.mock.deps as NodeDeps).ui;
    if (!ui) throw new Error('no ui');
    ui.listener.exposed = true;
  };

  it('loopback addresses are told apart from the others', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '/tmp/mock.sock'])
      expect([a, isLoopback(a)]).toEqual([a, true]);
    for (const a of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'fe80::1', '::ffff:10.0.0.1'])
      expect([a, isLoopback(a)]).toEqual([a, false]);
  });

  it('the listener says which it is once listening', async () => {
    const h = await harness();
    try {
      expect((h.mock.deps as NodeDeps).ui?.listener.exposed).toBe(false);
    } finally {
      await h.mock.close();
    }
  });

  it('without --admin-token, admin and inspector are off (404 Error); health and the reference stay', async () => {
    const h = await harness();
    try {
      expose(h);
      for (const [method, path] of [
        ['get', '/_mock/state'],
        ['post', '/_mock/reset'],
        ['get', '/_mock/inspector'],
        ['get', '/_mock/inspector/data'],
        ['get', '/_mock/inspector/events'],
      ] as const) {
        const res = await h.http[method](path).set('X-Mock-Admin', '1');
        expectError(res, 404, 'not_found');
      }
      expect((await h.http.get('/_mock/health')).status).toBe(200);
      const docs = await h.http.get('/_mock/docs');
      expect(docs.status).toBe(200);
      expect(docs.text).not.toMatch(/Inspector/);
    } finally {
      await h.mock.close();
    }
  });

  it('with --admin-token, admin routes and the inspector data need it (either header); the page does not', async () => {
    const token = 'a-long-admin-token-for-tests';
    const h = await harness({ adminToken: token });
    try {
      expose(h);
      for (const [method, path] of [
        ['get', '/_mock/state'],
        ['post', '/_mock/reset'],
        ['get', '/_mock/inspector/data'],
        ['get', '/_mock/inspector/events'],
      ] as const) {
        expectError(await h.http[method](path).set('X-Mock-Admin', '1'), 403, 'forbidden');
        expectError(await h.http[method](path).set(bearer('wrong-token-wrong-token')), 403, 'forbidden');
      }
      expect((await h.http.get('/_mock/state').set(bearer(token))).status).toBe(200);
      expect((await h.http.get('/_mock/state').set('X-Mock-Admin-Token', token)).status).toBe(200);
      expect((await h.http.get('/_mock/inspector/data').set(bearer(token))).status).toBe(200);
      expect((await h.http.post('/_mock/reset').set(bearer(token))).status).toBe(200);
      expect((await h.http.get('/_mock/inspector')).status).toBe(200);
      // A refused guess is counted like an API request (guessing the token is throttled).
      const refused = await h.http.get('/_mock/state');
      for (const name of RATE_HEADERS) expect(refused.headers[name]).toMatch(/^\d+$/);
      const served = await h.http.get('/_mock/state').set(bearer(token));
      expect(served.headers['x-ratelimit-remaining']).toBeUndefined();
    } finally {
      await h.mock.close();
    }
  });
});

describe('the inspector live stream', () => {
  it('refuses streams beyond the cap with a 503 Error, and frees a slot when a stream closes', async () => {
    const h = await harness({ inspectorStreams: { max: 2 } });
    try {
      const a = await openStream(h);
      const b = await openStream(h);
      expect([a.status, b.status]).toEqual([200, 200]);
      const refused = await h.http.get('/_mock/inspector/events');
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(refused.headers['retry-after']).toBe('10');
      a.res.destroy();
      await until(() => (h.mock.deps as NodeDeps).ui?.streams.open === 1);
      const c = await openStream(h);
      expect(c.status).toBe(200);
      b.res.destroy();
      c.res.destroy();
    } finally {
      await h.mock.close();
    }
  });

  it('sends a snapshot only when something changed, capped per resource with counts of the rest', async () => {
    const h = await harness({ inspectorStreams: { tickMs: 20, recordsShown: 2 } });
    try {
      const s = await openStream(h);
      await until(() => s.events.length === 1);
      const first = s.events[0] as { records: { categories: unknown[] }; counts: unknown };
      expect(first.records.categories).toHaveLength(2);
      expect(first.counts).toEqual({ categories: { total: 3, shown: 2 } });
      await new Promise((r) => setTimeout(r, 300)); // 15 ticks: nothing changed, nothing sent
      expect(s.events).toHaveLength(1);
      await h.http.post('/v1/categories').set(bearer('pro-key')).send({ name: 'new' }).expect(201);
      await until(() => s.events.length === 2);
      expect((s.events[1] as { counts: unknown }).counts).toEqual({ categories: { total: 4, shown: 2 } });
      s.res.destroy();
    } finally {
      await h.mock.close();
    }
  });

  it('ends a stream after its lifetime', async () => {
    const h = await harness({ inspectorStreams: { lifetimeMs: 200 } });
    try {
      const s = await openStream(h);
      const started = Date.now();
      await s.ended;
      expect(Date.now() - started).toBeLessThan(2000);
      await until(() => (h.mock.deps as NodeDeps).ui?.streams.open === 0);
    } finally {
      await h.mock.close();
    }
  });

  it('drops a client that stops reading, and queues nothing more for it meanwhile', async () => {
    const h = await harness();
    try {
      const state = createStreamState({ tickMs: 10, stallMs: 100 });
      const sink = Object.assign(new EventEmitter(), {
        writes: 0,
        destroyed: false,
        write(): boolean {
          this.writes++;
          return false; // the buffer is full from the first write on
        },
        end(): void {},
        destroy(): void {
          this.destroyed = true;
        },
      });
      let n = 0;
      // Something changes on every tick: a reader would get a snapshot each time.
      const deps = h.mock.deps as NodeDeps;
      const changing = (): NodeDeps => ({
        ...deps,
        seed: deps.seed,
        ui: deps.ui && {
          ...deps.ui,
          recent: {
            push: () => undefined,
            list: () => [{ t: n++, method: 'GET', path: '/', status: 200, ms: 0, plan: 'a', caller: 'a' }],
          },
        },
      });
      streamSnapshots(sink as unknown as EventSink, changing, state);
      expect(state.open).toBe(1);
      await until(() => sink.destroyed, 2000);
      expect(state.open).toBe(0);
      // The first write filled the buffer: at most the snapshot in flight followed it.
      expect(sink.writes).toBeLessThanOrEqual(2);
    } finally {
      await h.mock.close();
    }
  });

  it('drops a client at once when more than maxBufferedBytes are queued', async () => {
    const state = createStreamState({ maxBufferedBytes: 10 });
    const h = await harness();
    try {
      const sink = Object.assign(new EventEmitter(), {
        writableLength: 0,
        destroyed: false,
        write(chunk: string): boolean {
          this.writableLength += chunk.length;
          return true;
        },
        end(): void {},
        destroy(): void {
          this.destroyed = true;
        },
      });
      streamSnapshots(sink as unknown as EventSink, () => h.mock.deps as NodeDeps, state);
      await until(() => sink.destroyed);
      expect(state.open).toBe(0);
    } finally {
      await h.mock.close();
    }
  });
});

describe('Host header check', () => {
  it.each([
    ['localhost:4010', true],
    ['app.localhost', true],
    ['127.0.0.1:4010', true],
    ['[::1]:4010', true],
    ['10.1.2.3', true],
    [undefined, true],
    ['evil.example', false],
    ['evil.example:4010', false],
    ['localhost.evil.example', false],
  ])('%s: %s', (host, ok) => expect(localHost(host)).toBe(ok));
});

describe('no secret in any message', () => {
  const ROOT = path.join(__dirname, '..');
  function run(args: string[]): Promise<{ code: number | null; output: string }> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'mock', 'node', 'main.ts'), ...args],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, REDIS_URL: '' },
      },
    );
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
  }

  it.each([
    ['malformed', 'redis://:s3cret-pw@127.0.0.1:notaport'],
    ['unreachable', 'redis://user:s3cret-pw@127.0.0.1:1/0'],
  ])(
    'a %s --redis-url with a password never prints it',
    async (_kind, url) => {
      const { code, output } = await run(['--port', '0', '--store', 'redis', '--redis-url', url]);
      expect(code).toBe(2);
      expect(output).toMatch(/redis/i);
      expect(output).not.toContain('s3cret');
    },
    30_000,
  );

  it('masks credentials in URLs in log events and in free text', () => {
    const lines: string[] = [];
    createLogger({ write: (s: string) => lines.push(s) }, false).event(
      'error',
      'Redis at redis://:s3cret@h:1 is gone',
      {
        error: 'connect to rediss://u:p@ss/w@rd@h:2 failed',
      },
    );
    expect(lines.join('')).not.toMatch(/s3cret|p@ss|w@rd/);
    expect(maskSecrets('x redis://:pw@h:1/0 y')).toBe('x redis://***@h:1/0 y');
    expect(maskUrl('redis://:pw@h:1/0')).toBe('redis://:***@h:1/0');
  });

  it('start-up says who may use the admin routes and the inspector, never the token', async () => {
    const token = 'banner-admin-token-s3cret';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'mock', 'node', 'main.ts'), '--port', '0', '--admin-token', token],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await until(() => /Admin routes/.test(output), 20_000);
      expect(output).toMatch(/Admin routes and inspector data: need the admin token/);
      expect(output).not.toContain(token);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
