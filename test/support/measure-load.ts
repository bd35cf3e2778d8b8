/**
 * `node --expose-gc -r test/support/ts-register.js test/support/measure-load.ts FILE COPIES`: load FILE
 * COPIES times in a fresh process, every copy kept alive, and print `{ "ms": …, "heapMb": … }` per copy. A
 * fresh process measures the loader alone: a test worker's heap also holds what earlier test files left.
 */
import { loadSpec, type LoadedSpec } from '../../spec/load';

async function main(): Promise<void> {
  const [file = '', copiesText = '1'] = process.argv.slice(2);
  const copies = Number(copiesText);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  await loadSpec(); // the loader's own modules, once (on another document: nothing of FILE is kept)
  gc();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const kept: LoadedSpec[] = [];
  for (let i = 0; i < copies; i++) {
    const result = await loadSpec(file);
    if (!result.ok) throw new Error(result.error);
    kept.push(result.spec);
  }
  const ms = (performance.now() - started) / copies;
  gc();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6 / copies;
  process.stdout.write(`${JSON.stringify({ ms, heapMb, operations: kept[0]?.operations.length ?? 0 })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
