import { startReceiver } from './callback-receiver';

const post = (url: string, body: string, method = 'POST') =>
  fetch(url, { method, headers: { 'Content-Type': 'application/json' }, body });

describe('the callback receiver', () => {
  it('records what arrives on 127.0.0.1 and answers 200', async () => {
    const r = await startReceiver(0);
    try {
      expect(r.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await post(`${r.origin}/callbacks/1-x/more?q=1`, '{"a":1}')).status).toBe(200);
      expect(r.arrivals()).toEqual([
        expect.objectContaining({ method: 'POST', path: '/callbacks/1-x/more?q=1', body: '{"a":1}' }),
      ]);
      expect(r.arrivals()[0]?.headers['content-type']).toBe('application/json');
    } finally {
      await r.close();
    }
  });

  it('is bounded: a body over the limit is 413 (recorded without it), requests past the count are 503', async () => {
    const r = await startReceiver(0, { maxBodyBytes: 10, maxArrivals: 2 });
    try {
      expect((await post(`${r.origin}/a`, 'x'.repeat(11))).status).toBe(413);
      expect((await post(`${r.origin}/b`, '{}')).status).toBe(200);
      expect((await post(`${r.origin}/c`, '{}')).status).toBe(503);
      expect(r.arrivals().map((a) => [a.path, a.body, a.tooLarge ?? false])).toEqual([
        ['/a', '', true],
        ['/b', '{}', false],
      ]);
      expect(r.dropped()).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('waits for what it is told, or no longer than the bound', async () => {
    const r = await startReceiver(0);
    try {
      const started = Date.now();
      await r.waitFor((got) => got.length > 0, 150);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      const waiting = r.waitFor((got) => got.length > 0, 10_000);
      await post(`${r.origin}/x`, '{}');
      await waiting;
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await r.close();
    }
  });

  it('a port it cannot listen on is refused', async () => {
    const r = await startReceiver(0);
    try {
      await expect(startReceiver(Number(new URL(r.origin).port))).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await r.close();
    }
  });
});
