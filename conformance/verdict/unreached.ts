/**
 * Pure: why each documented (operation, status) pair the run did not observe was not reached: the one place that
 * says it, for the console, JSON, HTML and JUnit reports alike (each reads `CoverageEntry.reason`). A reason says
 * what the document or the run lacks (no security declared, no path parameter, a create that failed), never
 * blames the server: a pair not observed is no finding.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import type { CoverageEntry, RuleResult } from '../types';
import { bodyMediaType } from '../generate/encode-body';

/** What the reasons read of a run besides the document. */
export interface RunFacts {
  model: ResourceModel;
  rules: readonly RuleResult[];
  readOnly: boolean;
  /** Operations that got an answer of any status (one the document does not list included). */
  answered?: ReadonlySet<string>;
}

const ITEM_ACTIONS = new Set(['read', 'replace', 'patch', 'remove', 'update']);

/** The entries with a reason on each pair not observed. */
export function withReasons(
  spec: LoadedSpec,
  coverage: readonly CoverageEntry[],
  facts: RunFacts,
): CoverageEntry[] {
  const answered = new Set([
    ...coverage.filter((c) => c.observed).map((c) => c.operationId),
    ...(facts.answered ?? []),
  ]);
  return coverage.map((c) => {
    const op = spec.byId.get(c.operationId);
    if (c.observed || !op) return c;
    const reason = answered.has(op.operationId)
      ? statusReason(op, c.status, facts)
      : (notAnswered(op, facts) ?? statusReason(op, c.status, facts));
    return { ...c, reason };
  });
}

/** Why an operation got no answer at all, when the run knows. */
function notAnswered(op: OperationSpec, facts: RunFacts): string | undefined {
  if (facts.readOnly && !['get', 'head', 'options'].includes(op.method.toLowerCase()))
    return `--read-only: ${op.method.toUpperCase()} is not sent`;
  const media = op.requestBody ? bodyMediaType(op) : undefined;
  if (media && 'skip' in media) return media.skip;
  return createFailed(op, facts) ?? 'no request of the run got an answer (see the skipped rules)';
}

/** "the create failed, so no item" for an item operation whose resource's create did not pass. */
function createFailed(op: OperationSpec, facts: RunFacts): string | undefined {
  const binding = facts.model.byOperation.get(op.operationId);
  if (!binding || !ITEM_ACTIONS.has(binding.action)) return undefined;
  const create = facts.rules.find((r) => r.id === `crud.${binding.resource.name}.create`);
  if (!create || create.status === 'pass') return undefined;
  return `the create of ${binding.resource.name} ${create.status === 'fail' ? 'failed' : 'was skipped'}, so no item: ${create.evidence[0]?.problem.split('\n')[0] ?? ''}`;
}

/**
 * Why no client following the document can get `status` of `op` from a healthy server, or undefined: a server
 * error, or a 401 or 403 where the operation declares no security (no wrong credential can be sent).
 */
export function outOfReach(op: OperationSpec, status: string): string | undefined {
  const code = Number(status);
  if (code >= 500) return `${status}: a server error; a healthy server does not send one on purpose`;
  if ((code === 401 || code === 403) && !op.requiresAuth)
    return `${status}: the document declares no security for this operation, so no wrong credential can be sent`;
  return undefined;
}

/** Why one status of an operation the run reached was not seen. */
function statusReason(op: OperationSpec, status: string, facts: RunFacts): string {
  const code = Number(status);
  if (!/^\d{3}$/.test(status))
    return `${status}: a range or default; each status it covers is counted as itself`;
  const outside = outOfReach(op, status);
  if (outside) return outside;
  if (code === 403) return '403: the run has no credential known to lack a permission';
  if (code === 401) return '401: the auth rules (auth.*) were not selected or were answered otherwise';
  if (code === 404 && op.pathParams.length === 0)
    return '404: no unknown id case for a path without parameters';
  if (code === 429) return '429: the rate limit was not spent (the quota rules run with --include quota)';
  if ((code === 400 || code === 422) && !constrained(op))
    return `${status}: nothing the document forbids can be sent (no body, no constrained parameter)`;
  if (code >= 200 && code < 400)
    return createFailed(op, facts) ?? `${status}: no request of the run led to it`;
  return `${status}: the run's cases for it (unknown ids, refused values, undocumented types) were answered otherwise`;
}

/** Whether a request the document refuses can be written: a body, or a parameter with a constraint. */
function constrained(op: OperationSpec): boolean {
  const params = [...op.pathParamSpecs, ...op.queryParams, ...op.headerParams];
  return !!op.requestBody || params.some((p) => p.required || Object.keys(p.schema).length > 0);
}
