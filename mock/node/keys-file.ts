/** Read a keys file (mock/core/keys.ts says its format); a bad entry is refused by name. */
import { readFile } from 'node:fs/promises';
import { checkKeys, type KeysFile } from '../core/keys';

/** Read and check a keys file; short keys pass only when allowed. */
export async function loadKeysFile(
  file: string,
  options: { allowShortKeys?: boolean } = {},
): Promise<{ ok: true; file: KeysFile } | { ok: false; error: string }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return { ok: false, error: `keys file ${file}: ${(err as Error).message}` };
  }
  const checked = checkKeys(data, options);
  return checked.ok
    ? { ok: true, file: checked.file }
    : { ok: false, error: `keys file ${file}: ${checked.error}` };
}
