/**
 * Pure: the JSON Patch (RFC 6902) bodies the runner sends where a PATCH takes one (issue 26.4): a change planned
 * as for a merge patch, written as operations. Each changed member is `test`ed at its current value first, so a
 * server that ignores `test` or applies it wrongly shows; a removed member is a `remove`.
 */

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test';
  path: string;
  value?: unknown;
}

/** RFC 6901: the JSON Pointer to a top-level member. */
export const pointerTo = (name: string): string => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** `change` (a merge patch: null removes) as JSON Patch operations against an item that is `before`. */
export function jsonPatchOf(
  change: Record<string, unknown>,
  before: Record<string, unknown>,
): PatchOperation[] {
  const ops: PatchOperation[] = [];
  for (const [name, value] of Object.entries(change)) {
    const path = pointerTo(name);
    if (value === null) {
      if (name in before) ops.push({ op: 'remove', path });
      continue;
    }
    if (name in before) ops.push({ op: 'test', path, value: before[name] }, { op: 'replace', path, value });
    else ops.push({ op: 'add', path, value });
  }
  return ops;
}

/** A patch every item accepts and that changes nothing: a `test` of its own id. */
export function unchangedPatch(idField: string, item: Record<string, unknown>): PatchOperation[] {
  return [{ op: 'test', path: pointerTo(idField), value: item[idField] }];
}
