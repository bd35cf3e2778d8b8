/**
 * Issue 31, "the inspector shows a ban and lifts it": on a listening mock (127.0.0.1, port 0), GET /_mock/limits
 * lists every caller banned or limited now with its end (by label, never by key), POST
 * /_mock/limits/lift?caller=LABEL lifts that one caller only, and the inspector's data and page carry the same
 * list with a lift button per caller. Admin routes answer a banned caller, uncounted.
 */
import { createMockServer, type MockServer } from '../../mock/node';

const KEY_A = 'lift-one-key-a-0123456789';
const KEY_B = 'lift-one-key-b-0123456789';
const admin = { 'X-Mock-Admin': '1' };

interface Held {
  caller: string;
  plan: string;
  state: string;
  untilMs: number;
  until: string;
}

async function hammer(url: string, n: number, headers: Record<string, string> = {}): Promise<number> {
  let last = 0;
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    last = res.status;
  }
  return last;
}

describe('one caller at a time: the held callers listed and lifted', () => {
  let mock: MockServer;
  let base: string;
  let origin: string;
  beforeEach(async () => {
    mock = await createMockServer({
      keys: [
        { key: KEY_A, plan: 'enterprise', perMinute: 3, perDay: 1000, name: 'alpha' },
        { key: KEY_B, plan: 'enterprise', perMinute: 3, perDay: 1000 },
      ],
      banThreshold: 2,
      banSeconds: 300,
      quiet: true,
    });
    base = await mock.listen(0, '127.0.0.1');
    origin = new URL(base).origin;
  });
  afterEach(() => mock.close());

  const held = async (): Promise<{ callers: Held[]; truncated: boolean; text: string }> => {
    const res = await fetch(`${origin}/_mock/limits`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
    const text = await res.text();
    return { ...(JSON.parse(text) as { callers: Held[]; truncated: boolean }), text };
  };

  it('lists the bans with their end, lifts one, keeps the others', async () => {
    // The lift is a write: without the admin header it is refused (a refusal is counted like an API request).
    const refused = await fetch(`${origin}/_mock/limits/lift?caller=x`, { method: 'POST' });
    expect(refused.status).toBe(403);
    const before = Date.now();
    expect(await hammer(`${base}/categories`, 8, { Authorization: `Bearer ${KEY_A}` })).toBe(429);
    expect(await hammer(`${base}/categories`, 8, { Authorization: `Bearer ${KEY_B}` })).toBe(429);
    expect(await hammer(`${base}/categories`, 70)).toBe(429);

    const list = await held();
    expect(list.truncated).toBe(false);
    const callers = list.callers.map((c) => c.caller).sort();
    expect(callers).toContain('enterprise:alpha');
    expect(callers).toContain('anonymous@127.0.0.1');
    expect(callers).toHaveLength(3);
    for (const c of list.callers) {
      expect(c.state).toBe('banned');
      expect(c.untilMs).toBeGreaterThanOrEqual(before + 299_000);
      expect(new Date(c.until).getTime()).toBe(c.untilMs);
    }
    // Keys appear by their label only.
    expect(list.text).not.toContain(KEY_A);
    expect(list.text).not.toContain(KEY_B);

    const lift = (caller: string, headers: Record<string, string> = admin) =>
      fetch(`${origin}/_mock/limits/lift?caller=${encodeURIComponent(caller)}`, { method: 'POST', headers });
    const lifted = await lift('enterprise:alpha');
    expect(lifted.status).toBe(200);
    expect(await lifted.json()).toEqual({ status: 'lifted', caller: 'enterprise:alpha' });

    expect(
      (await fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${KEY_A}` } })).status,
    ).toBe(200);
    const stillBanned = await fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${KEY_B}` } });
    expect(stillBanned.status).toBe(429);
    expect(((await stillBanned.json()) as { code: string }).code).toBe('key_banned');
    expect((await held()).callers.map((c) => c.caller).sort()).toEqual(
      callers.filter((c) => c !== 'enterprise:alpha'),
    );

    // The address too, by the label the list gives it.
    expect((await lift('anonymous@127.0.0.1')).status).toBe(200);
    expect((await fetch(`${base}/categories`)).status).toBe(401);

    // Nobody of that name, or no name: an Error, not a 500.
    const unknown = await lift('enterprise:alpha');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('not_found');
    const none = await fetch(`${origin}/_mock/limits/lift`, { method: 'POST', headers: admin });
    expect(none.status).toBe(400);
  }, 30_000);

  it('the inspector shows each held caller with a lift button', async () => {
    await hammer(`${base}/categories`, 8, { Authorization: `Bearer ${KEY_A}` });
    const data = (await (await fetch(`${origin}/_mock/inspector/data`)).json()) as {
      held: { callers: Held[]; truncated: boolean };
    };
    expect(data.held.callers).toEqual([
      expect.objectContaining({ caller: 'enterprise:alpha', state: 'banned' }),
    ]);
    const page = await (await fetch(`${origin}/_mock/inspector`)).text();
    expect(page).toContain('id="held"');
    const script = await (await fetch(`${origin}/_mock/ui/inspector.js`)).text();
    expect(script).toContain('/_mock/limits/lift?caller=');
    expect(script).toContain('lift-one');
  });
});
