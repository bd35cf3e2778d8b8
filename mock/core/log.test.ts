/** The request log line: a reset connection shows as status "reset", an answer as its number. */
import { createLogger, silentLogger } from './log';

it.each([
  [0, 'reset'],
  [503, 503],
])('status %p is logged as %p', (status, shown) => {
  let line = '';
  createLogger({ write: (s: string) => (line += s) }, false).request({
    method: 'GET',
    path: '/v1/pets',
    status,
    ms: 1,
    caller: 'free',
    injected: 'fault reset',
  });
  expect(JSON.parse(line)).toMatchObject({ status: shown, injected: 'fault reset' });
});

it('says whether it writes request lines, so the adapter can skip building them', () => {
  const out = { write: () => undefined };
  expect(createLogger(out, true).requests).toBe(false);
  expect(createLogger(out, false).requests).toBe(true);
  expect(silentLogger.requests).toBe(false);
});
