import type { RunContext } from '../send/check-context';
import { freshWindowProbe } from './quota';

/** A quota key's answer whose window ends `resetSeconds` (epoch seconds) later. */
const answer = (remaining: number, resetSeconds: number) => ({
  kind: 'response' as const,
  exchange: {},
  response: {
    status: 200,
    headers: { 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetSeconds) },
  },
});

function fakeClient(reset: () => number) {
  const sent: number[] = [];
  const ctx = {
    client: {
      send: async () => {
        sent.push(Date.now());
        return answer(sent.length === 1 ? 3 : 10, reset());
      },
    },
  } as unknown as RunContext;
  return { ctx, sent };
}

it('a window about to end is waited out and probed again, so the burst fits in one window', async () => {
  const end = Math.ceil((Date.now() + 500) / 1000); // 0.5–1.5 s away: inside the guard
  const { ctx, sent } = fakeClient(() => (sent.length === 1 ? end : end + 60));
  const probe = await freshWindowProbe(ctx, '/v1/categories');
  expect(sent).toHaveLength(2);
  expect(sent[1]).toBeGreaterThanOrEqual(end * 1000);
  expect(probe.kind === 'response' && probe.response.headers['x-ratelimit-remaining']).toBe('10');
});

it('a window with time to spare is used at once', async () => {
  const { ctx, sent } = fakeClient(() => Math.ceil(Date.now() / 1000) + 30);
  await freshWindowProbe(ctx, '/v1/categories');
  expect(sent).toHaveLength(1);
});
