/** `--seed-har FILE…`: read recorded traffic and build the stores' records from its answers (mock/core/seed-har.ts). */
import { readFile, stat } from 'node:fs/promises';
import type { CompiledSpec } from '../../spec/compile';
import { harEntries, type HarLikeEntry } from '../../spec/report/har-read';
import { inferResources } from '../../spec/resources';
import { seedFromHar } from '../core/seed-har';
import type { SeedData } from '../core/stores/types';

/** Largest HAR file read. */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

/** The seed from the files, and one line per record left out (at most `maxLines`, then a count). */
export async function loadSeedHar(
  files: readonly string[],
  spec: CompiledSpec,
  maxLines = 20,
): Promise<{ ok: true; seed: SeedData; lines: string[] } | { ok: false; error: string }> {
  const entries: HarLikeEntry[] = [];
  for (const file of files) {
    try {
      if ((await stat(file)).size > MAX_HAR_BYTES)
        return { ok: false, error: `--seed-har ${file}: over ${MAX_HAR_BYTES} bytes` };
      const parsed = harEntries(JSON.parse(await readFile(file, 'utf8')) as unknown);
      if (!parsed.ok) return { ok: false, error: `--seed-har ${file}: ${parsed.error}` };
      entries.push(...parsed.entries);
    } catch (err) {
      return { ok: false, error: `--seed-har ${file}: ${(err as Error).message}` };
    }
  }
  const inferred = inferResources(spec);
  if (!inferred.ok) return { ok: false, error: inferred.error };
  const built = seedFromHar(spec, inferred.model, entries);
  const kept = Object.entries(built.kept).map(([name, n]) => `${name} ${n}`);
  const lines = [
    `seeded from ${files.length} HAR file(s): ${kept.join(', ') || 'no record'} (${built.answers} answers read, ${built.leftOut.length} record(s) left out)`,
    ...built.leftOut
      .slice(0, maxLines)
      .map((l) => `  left out ${l.resource}${l.id === undefined ? '' : ` ${l.id}`}: ${l.why}`),
  ];
  if (built.leftOut.length > maxLines) lines.push(`  … and ${built.leftOut.length - maxLines} more`);
  return { ok: true, seed: built.seed, lines };
}
