/** §7: whether an error answer carries the documented error body; the runner, the proxy and the probes ask the same. */
import { documentedResponse } from '../compile';
import { mostUsedErrorResponse } from '../error-response';
import { formatAjvErrors, type LoadedSpec } from '../load';
import type { RecordedResponse } from '../report/types';

/**
 * §7: an error body of the documented shape: the schema the operation documents for this status (or `default`),
 * else the error schema the document uses most (as the mock picks it); a `status` member must equal the HTTP status. A problem or undefined.
 */
export function errorBodyProblem(
  spec: LoadedSpec,
  res: RecordedResponse,
  operationId?: string,
): string | undefined {
  const op = operationId ? spec.byId.get(operationId) : undefined;
  const documented = op && documentedResponse(op, res.status);
  const validate = documented?.validateBody ?? mostUsedErrorResponse(spec)?.validateBody;
  if (!validate) return res.json === undefined ? 'the error body is not JSON' : undefined;
  if (!validate(res.json)) return `body is not an Error: ${formatAjvErrors(validate.errors)}`;
  const status = (res.json as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return undefined;
  return status === res.status ? undefined : `Error status ${String(status)} differs from HTTP ${res.status}`;
}
