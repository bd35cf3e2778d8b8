/** The seed file: `{ "categories": [ NewCategory, … ] }`, each entry checked with the spec's validator. */
import { readFile } from 'node:fs/promises';
import { formatAjvErrors, type LoadedSpec } from '../../spec/load';
import type { NewCategory } from '../../spec/types';

/** Read and check a seed file against the spec's NewCategory schema. */
export async function loadSeedFile(
  file: string,
  spec: LoadedSpec,
): Promise<{ ok: true; categories: NewCategory[] } | { ok: false; error: string }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return { ok: false, error: `seed file ${file}: ${(err as Error).message}` };
  }
  const list = (data as { categories?: unknown }).categories;
  if (!Array.isArray(list)) return { ok: false, error: `seed file ${file}: needs a "categories" array` };
  const validate = spec.schemas.get('NewCategory');
  if (!validate) return { ok: false, error: 'the spec has no NewCategory schema' };
  for (const [i, entry] of list.entries()) {
    if (!validate(entry))
      return {
        ok: false,
        error: `seed file ${file}: categories/${i}: ${formatAjvErrors(validate.errors, 'entry')}`,
      };
  }
  return { ok: true, categories: list as NewCategory[] };
}
