/** §7: whether an error answer carries the documented error body; the runner, the proxy and the probes ask the same. */
import { documentedResponse, type CompiledSpec, type ResponseSpec } from '../compile';
import { errorResponse, mostUsedErrorResponse } from '../error-response';
import { formatAjvErrors, type LoadedSpec } from '../load';
import type { RecordedResponse } from '../report/types';

/**
 * §7: an error body of the documented shape: the schema the operation documents for this status (or its range,
 * or `default`), else the document's universal error shape (see `universalErrorResponse`); a `status` member must
 * equal the HTTP status. A problem, undefined when it holds, or null when the document says nothing about this
 * answer (a status it never mentions, no shape that every operation shares): nothing to judge.
 */
export function errorBodyProblem(
  spec: LoadedSpec,
  res: RecordedResponse,
  operationId?: string,
): string | undefined | null {
  const op = operationId ? spec.byId.get(operationId) : undefined;
  const documented = op && documentedResponse(op, res.status);
  const validate = documented?.validateBody ?? universalErrorResponse(spec)?.validateBody;
  if (!validate) {
    if (!documented?.mediaTypes.some((m) => /json/i.test(m))) return null;
    return res.json === undefined ? 'the error body is not JSON' : undefined;
  }
  if (!validate(res.json)) return `body is not an Error: ${formatAjvErrors(validate.errors)}`;
  const status = (res.json as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return undefined;
  return status === res.status ? undefined : `Error status ${String(status)} differs from HTTP ${res.status}`;
}

const universal = new WeakMap<CompiledSpec, ResponseSpec | undefined>();

/**
 * The error shape the document states for every answer: its most used error response, when every operation
 * documents an error with that schema (the pet store's 401 and 429 on each). Only then is an error status the
 * document never mentions (a 404, a 405) held to it; a shape documented for a few 400s says nothing of the rest.
 */
export function universalErrorResponse(spec: CompiledSpec): ResponseSpec | undefined {
  if (universal.has(spec)) return universal.get(spec);
  const most = mostUsedErrorResponse(spec);
  const shape = (r: ResponseSpec | undefined) => {
    try {
      return r?.schema ? `${r.contentType} ${JSON.stringify(r.schema)}` : undefined;
    } catch {
      return undefined; // a circular schema: not an error shape anyone writes
    }
  };
  const wanted = shape(most);
  const shares = (r: ResponseSpec) => errorResponse(r) !== undefined && shape(r) === wanted;
  const every =
    most !== undefined &&
    spec.operations.length > 0 &&
    spec.operations.every((op) =>
      [...op.responses].some(([status, r]) => /^[45]|^default$/.test(status) && shares(r)),
    );
  const found = every ? most : undefined;
  universal.set(spec, found);
  return found;
}
