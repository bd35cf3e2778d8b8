import { idsWith, runAgainst } from '../../test/support/helpers';
import { startReferenceServer, type Fault } from '../../test/support/reference-server';

// Callers without a key get only 3 requests a minute here, so the auth matrix runs into the limit.
async function runTight(fault?: Fault) {
  const server = await startReferenceServer({ anonymousLimit: 3, fault });
  try {
    const report = await runAgainst(server.url, { include: [], maxWaitMs: 500 });
    const anonymous429s = [...server.rejected.entries()]
      .filter(([id]) => id.startsWith('addr:'))
      .map(([, n]) => n);
    return { report, anonymous429s };
  } finally {
    await server.close();
  }
}

describe('near the rate limit', () => {
  it('paces itself from X-RateLimit-Remaining/Reset: no 429, the rules it could not run are skipped', async () => {
    const { report, anonymous429s } = await runTight();
    expect(anonymous429s).toEqual([]);
    expect(idsWith(report, 'fail')).toEqual([]);
    const skipped = report.rules.filter((r) => r.status === 'skip');
    expect(skipped.map((r) => r.id)).toContain('auth.unknown-key');
    // The IETF Retry-After rule needs a 429, which this run avoids (that skip says so).
    for (const rule of skipped.filter((r) => r.id !== 'ratelimit.ietf-retry-after'))
      expect(rule.evidence[0]?.problem).toMatch(/rate-limited.*--max-wait/);
  });

  it('after an unexpected 429 honours Retry-After: skips, never fails, and sends nothing more', async () => {
    // Without X-RateLimit-Reset the runner cannot pace, so it meets the 429.
    const { report, anonymous429s } = await runTight('missing-rate-limit-header');
    expect(idsWith(report, 'fail')).toEqual(['response.headers']);
    expect(anonymous429s).toEqual([1]);
    const auth = report.rules.filter((r) => r.id.startsWith('auth.') && r.status === 'skip');
    expect(auth.length).toBeGreaterThan(0);
    for (const rule of auth) expect(rule.evidence[0]?.problem).toMatch(/rate-limited/);
  });
});
