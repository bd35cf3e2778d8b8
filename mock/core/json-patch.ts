/**
 * JSON Patch (RFC 6902) for a PATCH documented with `application/json-patch+json` or an array of `{ op, path }`.
 * Applied with fast-json-patch (well kept, validates each operation, implements `test` with deep equality)
 * on a copy: a refused patch leaves the stored record as it was.
 */
import { applyPatch, JsonPatchError, type Operation } from 'fast-json-patch';
export { isJsonPatch, sendsJsonPatch } from '../../spec/json-patch';

export type PatchOutcome = { ok: true; value: unknown } | { ok: false; failedTest: boolean; message: string };

/** Pure: apply `patch` to a copy of `target`; a failed `test` is told apart from a malformed patch. */
export function applyJsonPatch(target: unknown, patch: unknown): PatchOutcome {
  if (!Array.isArray(patch))
    return { ok: false, failedTest: false, message: 'a JSON Patch is an array of operations' };
  try {
    const copy: unknown = structuredClone(target);
    const result = applyPatch(copy, patch as Operation[], true, true, true);
    return { ok: true, value: result.newDocument };
  } catch (err) {
    if (!(err instanceof JsonPatchError)) throw err;
    const at = err.index === undefined ? '' : `operation ${err.index}: `;
    const failedTest = err.name === 'TEST_OPERATION_FAILED';
    return {
      ok: false,
      failedTest,
      message: `${at}${failedTest ? 'test failed' : err.message.split('\n')[0]}`,
    };
  }
}
