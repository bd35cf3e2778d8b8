/**
 * Issue 42's goal, measured: the proxy's own 5xx on 1,000 malformed client requests (test/support/
 * malformed-clients.ts: bodies cut short, stalled or reset, a Content-Length of 10^10, bad chunks, headers too
 * large), in front of the mock. Prints the statuses by kind and the count of 5xx (answered or in the proxy's log).
 * Usage: npx tsx bench/proxy-malformed.ts [--count N]
 */
import { parseArgs } from 'node:util';
import { createMockServer } from '../mock/node/index';
import { createProxyServer } from '../proxy/proxy-server';
import { loadSpecOrThrow } from '../spec/load';
import { KEYS } from '../test/support/mock-harness';
import { sendMalformedMix } from '../test/support/malformed-clients';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string' } } });
  const count = Number(values.count ?? 1000);
  const mock = await createMockServer({ keys: KEYS });
  const upstream = new URL(await mock.listen(0));
  const proxy = createProxyServer({
    spec: await loadSpecOrThrow(),
    upstream,
    mode: 'report',
    timeoutMs: 1000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  const base = new URL(await proxy.listen(0, '127.0.0.1'));
  try {
    const outcomes = await sendMalformedMix(base, count, 25);
    const byKind: Record<string, Record<string, number>> = {};
    for (const o of outcomes) {
      const kind = (byKind[o.kind] ??= {});
      kind[o.status || 'none'] = (kind[o.status || 'none'] ?? 0) + 1;
    }
    const log = (await (await fetch(`${base.origin}/_mock/exchanges`)).json()) as {
      exchanges: Array<{ status: number }>;
    };
    const answered5xx = outcomes.filter((o) => o.status >= 500).length;
    const logged5xx = log.exchanges.filter((e) => e.status >= 500).length;
    const notShape = outcomes.filter((o) => o.status > 0 && !o.errorShape).length;
    process.stdout.write(`${JSON.stringify(byKind, null, 1)}\n`);
    process.stdout.write(
      `${count} malformed requests: ${answered5xx} answered 5xx, ${logged5xx} 5xx in the proxy's log (newest 200), ${notShape} answers not in the error shape\n`,
    );
    process.exitCode = answered5xx + logged5xx + notShape === 0 ? 0 : 1;
  } finally {
    await proxy.close();
    await mock.close();
  }
}

void main();
