/**
 * A local user cannot lock themselves out (issue 31): on a listening mock (127.0.0.1, port 0), the admin routes
 * answer an address and a key that are banned; the inspector lists the refused callers and lifts every limit and
 * ban; `--rate-limit off` serves without limits.
 */
import { parseConfig } from '../../mock/node/config';
import { createMockServer, type MockServer } from '../../mock/node';

const KEY = 'lockout-test-key-0123456789';

async function hammer(url: string, n: number, headers: Record<string, string> = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

const bearer = { Authorization: `Bearer ${KEY}` };
const admin = { 'X-Mock-Admin': '1' };

describe('a local user cannot lock themselves out', () => {
  let mock: MockServer;
  let base: string;
  let origin: string;
  afterEach(() => mock.close());

  async function start(rateLimit = true): Promise<void> {
    mock = await createMockServer({
      keys: [{ key: KEY, plan: 'enterprise', perMinute: 3, perDay: 1000 }],
      banThreshold: 2,
      rateLimit,
      quiet: true,
    });
    base = await mock.listen(0, '127.0.0.1');
    origin = new URL(base).origin;
  }

  it('the admin routes answer a banned address and a banned key, uncounted; the inspector shows and lifts the bans', async () => {
    await start();
    const anonymous = await hammer(`${base}/categories`, 64);
    const keyed = await hammer(`${base}/categories`, 8, bearer);
    expect(anonymous.at(-1)).toBe(429);
    expect(keyed.at(-1)).toBe(429);
    const banned = await fetch(`${base}/categories`, { headers: bearer });
    expect(((await banned.json()) as { code: string }).code).toBe('key_banned');

    for (const headers of [{}, bearer]) {
      const state = await fetch(`${origin}/_mock/state`, { headers });
      expect(state.status).toBe(200);
      expect(state.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    const data = (await (await fetch(`${origin}/_mock/inspector/data`)).json()) as {
      refused: Array<{ caller: string; plan: string }>;
    };
    expect(data.refused.map((r) => r.plan).sort()).toEqual(['anonymous', 'enterprise']);
    const page = await (await fetch(`${origin}/_mock/inspector`)).text();
    expect(page).toContain('id="refused"');
    expect(page).toContain('Lift every limit and ban');

    const lift = await fetch(`${origin}/_mock/limits/reset`, {
      method: 'POST',
      headers: { ...admin, ...bearer },
    });
    expect(lift.status).toBe(200);
    expect((await fetch(`${base}/categories`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${base}/categories`)).status).toBe(401);
    const after = (await (await fetch(`${origin}/_mock/inspector/data`)).json()) as { refused: unknown[] };
    expect(after.refused).toEqual([]);

    // Banned again, the whole reset still answers the banned key.
    await hammer(`${base}/categories`, 8, bearer);
    const reset = await fetch(`${origin}/_mock/reset`, { method: 'POST', headers: { ...admin, ...bearer } });
    expect(reset.status).toBe(200);
    expect((await fetch(`${base}/categories`, { headers: bearer })).status).toBe(200);
  }, 30_000);

  it('--rate-limit off: nothing is counted, limited or banned; the headers still carry the plan', async () => {
    await start(false);
    const statuses = await hammer(`${base}/categories`, 20, bearer);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const res = await fetch(`${base}/categories`, { headers: bearer });
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('3');
  });

  it('--rate-limit takes on or off (or MOCK_RATE_LIMIT)', () => {
    const off = parseConfig(['--rate-limit', 'off']);
    expect(off.ok === true && off.rateLimit).toBe(false);
    const env = parseConfig([], { MOCK_RATE_LIMIT: 'off' });
    expect(env.ok === true && env.rateLimit).toBe(false);
    const on = parseConfig([]);
    expect(on.ok === true && on.rateLimit).toBe(true);
    expect(parseConfig(['--rate-limit', 'maybe'])).toEqual({
      ok: false,
      error: '--rate-limit must be on or off, got "maybe"',
    });
  });
});
