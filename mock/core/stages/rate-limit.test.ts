/** decideLimit with plain numbers: the headers follow the window as it moves, whatever was formatted before. */
import { decideLimit } from './rate-limit';
import type { WindowSpec } from '../stores/types';

const windows: WindowSpec[] = [
  { name: 'minute', limit: 60, windowMs: 60_000 },
  { name: 'day', limit: 1000, windowMs: 86_400_000 },
];

it.each([
  // [now, used in the minute, X-RateLimit-Reset, RateLimit]
  [120_000, 1, '180', '"minute";r=59;t=60'],
  [150_000, 2, '180', '"minute";r=58;t=30'],
  // the next minute: the reset moves with it
  [181_000, 1, '240', '"minute";r=59;t=59'],
  [239_999, 60, '240', '"minute";r=0;t=1'],
])('at %d ms with %d used, the minute resets at %s s', (now, used, reset, field) => {
  const { headers, reject } = decideLimit(windows, { kind: 'admitted', used: [used, 3] }, now);
  expect(reject).toBeUndefined();
  expect(headers).toEqual({
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': String(60 - used),
    'X-RateLimit-Reset': reset,
    RateLimit: field,
    'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
  });
});

it('a ban reports its own end as the reset, then the window’s own again', () => {
  const banned = decideLimit(windows, { kind: 'banned', untilMs: 300_000, used: [60, 60] }, 200_000);
  expect(banned.headers['X-RateLimit-Reset']).toBe('300');
  expect(banned.reject?.status).toBe(429);
  const after = decideLimit(windows, { kind: 'admitted', used: [1, 61] }, 301_000);
  expect(after.headers['X-RateLimit-Reset']).toBe('360');
});
