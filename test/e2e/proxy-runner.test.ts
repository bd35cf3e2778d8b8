/** The runner pointed at the proxy in front of the mock passes, and the proxy reports no response-side violation. */
import { runConformance } from '../../conformance';
import { createMockServer } from '../../mock/node/index';
import { createProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { KEYS } from '../support/mock-harness';

it('the runner passes through the proxy and the proxy finds nothing on the server side', async () => {
  const spec = await loadSpecOrThrow();
  const mock = await createMockServer({ keys: KEYS });
  const upstream = await mock.listen(0);
  const proxy = createProxyServer({
    spec,
    upstream: new URL(upstream),
    mode: 'report',
    timeoutMs: 5000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  try {
    const base = await proxy.listen(0, '127.0.0.1');
    const report = await runConformance({
      target: base,
      key: 'pro-key',
      quotaKey: 'free-key',
      seed: 7,
      maxWaitMs: 2000,
    });
    const failing = report.rules
      .filter((r) => r.status === 'fail')
      .map((r) => `${r.id}: ${r.evidence[0]?.problem ?? ''}`);
    expect(failing).toEqual([]);
    const snapshot = proxy.judge.snapshot();
    expect(snapshot.exchanges).toBeGreaterThan(20);
    expect(snapshot.violations.filter((v) => v.side === 'response')).toEqual([]);
    // The runner sends bad input on purpose: the proxy sees it as the client's fault.
    expect(snapshot.violations.some((v) => v.side === 'request')).toBe(true);
  } finally {
    await proxy.close();
    await mock.close();
  }
}, 60_000);
