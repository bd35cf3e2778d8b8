/** The seed file: `{ "books": [ … ], "authors": [ … ] }`, keyed by resource name, checked against the document. */
import { readFile } from 'node:fs/promises';
import type { CompiledSpec } from '../../spec/compile';
import { inferResources } from '../../spec/resources';
import { checkSeed } from '../core/seed';
import type { SeedData } from '../core/stores/types';

/** Read and check a seed file; an error names the file and the entry (`books/0: …`). */
export async function loadSeedFile(
  file: string,
  spec: CompiledSpec,
): Promise<{ ok: true; seed: SeedData } | { ok: false; error: string }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return { ok: false, error: `seed file ${file}: ${(err as Error).message}` };
  }
  const inferred = inferResources(spec);
  if (!inferred.ok) return { ok: false, error: inferred.error };
  const problem = checkSeed(data, inferred.model, spec);
  if (problem) return { ok: false, error: `seed file ${file}: ${problem}` };
  return { ok: true, seed: data as SeedData };
}
