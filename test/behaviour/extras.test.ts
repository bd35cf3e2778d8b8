import { connect, type AddressInfo } from 'node:net';
import { buildPipeline, runPipeline } from '../../mock/core/pipeline';
import { toHttpResponse } from '../../mock/core/stages/respond';
import type { CountedCtx, Stage } from '../../mock/core/context';
import { bearer, expectError, harness, type Harness } from '../support/mock-harness';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.mock.close());
beforeEach(() => h.mock.reset());

describe('CORS for browser frontends', () => {
  it('allows any origin by default and exposes the rate-limit headers', async () => {
    const res = await h.http
      .get('/v1/categories')
      .set(bearer('free-key'))
      .set('Origin', 'http://localhost:3000');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toMatch(/X-RateLimit-Remaining/);
    expect(res.headers['access-control-expose-headers']).toMatch(/Retry-After/);
  });

  it('answers a preflight without a key, with the rate-limit headers', async () => {
    const res = await h.http
      .options('/v1/categories')
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  it('allows only the configured origins when a list is given', async () => {
    const strict = await harness({ corsOrigins: ['https://app.example'] });
    try {
      const ok = await strict.http
        .get('/v1/categories')
        .set(bearer('free-key'))
        .set('Origin', 'https://app.example');
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await strict.http
        .get('/v1/categories')
        .set(bearer('free-key'))
        .set('Origin', 'https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await strict.mock.close();
    }
  });
});

describe('Prefer: code=NNN answers with a documented status and its example', () => {
  it.each([
    ['get', '/v1/categories', 401, 'unauthorized'],
    ['get', '/v1/categories', 429, 'rate_limited'],
    ['post', '/v1/categories', 400, 'invalid_request'],
    ['get', '/v1/store/orders', 401, 'unauthorized'],
  ] as const)('%s %s with Prefer: code=%i', async (method, path, status, code) => {
    const res = await h.http[method](path)
      .set(bearer('free-key'))
      .set('Prefer', `code=${status}`)
      .send(method === 'post' ? { name: 'x' } : undefined);
    expectError(res, status, code);
    if (status === 429) expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('still requires a key', async () => {
    expectError(await h.http.get('/v1/categories').set('Prefer', 'code=200'), 401);
  });

  it('refuses an undocumented status with a clear 400', async () => {
    const res = await h.http.get('/v1/categories').set(bearer('free-key')).set('Prefer', 'code=418');
    expectError(res, 400, 'invalid_prefer');
    expect(res.body.message).toMatch(/418 is not a documented status of listCategories \(200, 401, 429\)/);
  });

  it('a forced example does not store anything', async () => {
    await h.http
      .post('/v1/categories')
      .set(bearer('free-key'))
      .set('Prefer', 'code=400')
      .send({ name: 'ghost' });
    const names = (await h.http.get('/v1/categories').set(bearer('free-key'))).body.map(
      (c: { name: string }) => c.name,
    );
    expect(names).not.toContain('ghost');
  });
});

describe('a thrown error is a 500 Error answer, never a dead process', () => {
  it('runPipeline turns a throwing stage into internal_error and keeps the headers known so far', async () => {
    // Right after the rate limit: the headers are known when it throws.
    const boom: Stage<CountedCtx> = () => {
      throw new Error('bug');
    };
    const pipeline = buildPipeline({ afterLimit: [boom] });
    const req = {
      method: 'GET',
      path: '/v1/categories',
      query: '',
      headers: { authorization: 'Bearer free-key' },
      remoteAddress: '127.0.0.1',
    };
    const result = await runPipeline(req, h.mock.deps, pipeline);
    expect(result.reply.status).toBe(500);
    const sent = toHttpResponse(result.reply, result.ctx, h.mock.deps);
    expect(JSON.parse(new TextDecoder().decode(sent.body))).toEqual({
      code: 'internal_error',
      message: expect.any(String),
      status: 500,
    });
    expect(result.ctx.limitHeaders?.['X-RateLimit-Limit']).toBe('60');
    expect(result.error).toBeInstanceOf(Error);
  });

  it('a failing example engine gives a 500 Error and the server keeps serving', async () => {
    const engine = h.mock.deps.engine;
    h.mock.deps.engine = async () => {
      throw new Error('engine exploded');
    };
    try {
      expectError(await h.http.get('/v1/pets/1').set(bearer('free-key')), 500, 'internal_error');
    } finally {
      h.mock.deps.engine = engine;
    }
    expect((await h.http.get('/v1/pets/1').set(bearer('free-key'))).status).toBe(200);
  });
});

describe('HTTP that Node refuses before it is a request still gets the Error shape', () => {
  const rawExchange = (payload: string): Promise<string> =>
    new Promise((resolve) => {
      const { port } = h.mock.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      let got = '';
      socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(got));
      socket.write(payload);
    });

  it.each([
    [
      'oversized headers',
      `GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'header_too_large',
    ],
    ['a broken request line', 'NOT-HTTP\r\n\r\n', 400, 'bad_request'],
  ])(
    '%s: the Error shape with the rate-limit headers, then the connection closes',
    async (_what, payload, status, code) => {
      const answer = await rawExchange(payload);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/);
      expect(head).toMatch(/\r\nX-RateLimit-Limit: 60\r\n/);
      expect(head).toMatch(/\r\nX-RateLimit-Remaining: \d+\r\n/);
      expect(JSON.parse(body)).toEqual({ code, message: expect.any(String), status });
    },
  );
});

describe('the Prism example engine honours Prefer too', () => {
  it('answers GET /v1/store/orders with Prefer: code=401 from the example', async () => {
    const p = await harness({ exampleEngine: 'prism' });
    try {
      const res = await p.http.get('/v1/store/orders').set(bearer('free-key')).set('Prefer', 'code=401');
      expectError(res, 401, 'unauthorized');
    } finally {
      await p.mock.close();
    }
  });
});
