/**
 * The catalogue of rules the runner checks. Ids are stable: reports, CI filters (`--rule`) and scenario files
 * refer to them. The engine's rules hold for any document (§ cites the interface document's sections);
 * a document's own rules are data (conformance/scenarios/catalogue/), listed when the document has their
 * operations. `assumption` rules check a detail the interface leaves "not shown" and fail only with --strict.
 */
import path from 'node:path';
import { projectRoot } from '../spec/paths';
import { appliesTo, mergeRules, readCatalogue, type CatalogueFile } from './catalogue';
import type { Rule } from './types';

/** The folder of the shipped document's own rules. */
export const CATALOGUE_DIR = path.join(projectRoot(), 'conformance', 'scenarios', 'catalogue');

const c = (id: string, source: string, title: string, tags: string[]): Rule => ({
  id,
  title,
  source,
  kind: 'contract',
  tags,
});
const a = (id: string, source: string, title: string, tags: string[]): Rule => ({
  id,
  title,
  source,
  kind: 'assumption',
  tags: [...tags, 'assumption'],
});

/** The rules every document gets. */
export const ENGINE_RULES: readonly Rule[] = [
  // §5: every operation requires a bearer key; a missing or invalid one gives 401 with an Error body.
  // Per security scheme the document declares (bearer, basic, apiKey in a header, query or cookie).
  c('auth.missing-key', '§5', 'No credential gives 401 with an Error body on every secured operation', [
    'auth',
  ]),
  c(
    'auth.wrong-scheme',
    '§5',
    'The key in a scheme the operation does not accept (Basic for bearer) gives 401 with an Error body',
    ['auth'],
  ),
  c(
    'auth.empty-bearer',
    '§5',
    'An empty credential (bearer token, Basic, API key) gives 401 with an Error body',
    ['auth'],
  ),
  c('auth.unknown-key', '§5', 'An unknown key gives 401 with an Error body on every secured operation', [
    'auth',
  ]),
  // Generated from the request body schemas (seeded).
  c('body.generated-valid', '§2', 'Generated schema-valid request bodies are accepted', ['generated']),
  c(
    'body.generated-invalid',
    '§2',
    'Generated schema-violating request bodies are rejected with 400 (or the documented 422)',
    ['generated'],
  ),
  c('methods.undocumented', '§4', 'An undocumented method on a documented path does not succeed', [
    'generated',
  ]),
  c(
    'operations.reached',
    '§4',
    'Every selected operation is called with a valid request (path values from its examples, else its schema) and answers',
    ['generated'],
  ),
  // Checked on every response of every step.
  c('response.no-5xx', '§4', 'No response is a server error (5xx)', ['response']),
  c('response.documented-status', '§4', 'Every status is one the operation documents', ['response']),
  c('response.json', '§1', 'Every response is application/json with a JSON body', ['response']),
  c('response.body-schema', '§2', 'Every body matches the schema documented for its operation and status', [
    'response',
  ]),
  c('response.headers', '§8', 'Documented headers are present and valid (rate-limit headers are integers)', [
    'response',
  ]),
  c(
    'response.empty-body',
    '§4',
    'A response has a body exactly when its status documents content (an error may carry its error body)',
    ['response'],
  ),
  c('errors.error-body', '§7', 'Every error response has an Error body whose status equals the HTTP status', [
    'response',
  ]),
  // §8 rate limits
  c('ratelimit.values', '§8', 'Remaining <= Limit, and Reset is a future Unix time within a day', [
    'ratelimit',
  ]),
  c('ratelimit.decrement', '§8', 'X-RateLimit-Remaining decreases by one per counted request', ['ratelimit']),
  // IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11): skipped when the target sends none.
  c('ratelimit.ietf-syntax', '§8', 'RateLimit and RateLimit-Policy are valid structured field Lists', [
    'ratelimit',
  ]),
  c('ratelimit.ietf-quota', '§8', "RateLimit's r never exceeds its policy's q", ['ratelimit']),
  c('ratelimit.ietf-countdown', '§8', "RateLimit's r decreases by one per counted request", ['ratelimit']),
  c('ratelimit.ietf-retry-after', '§8', "A 429's Retry-After is not earlier than RateLimit's t", [
    'ratelimit',
  ]),
  c(
    'quota.429-after-limit',
    '§8',
    'Once the limit is spent, requests get 429 with an Error and Retry-After',
    ['quota'],
  ),
  c('quota.burst-exact', '§8', 'A parallel burst that spends the limit admits exactly the limit', ['quota']),
  // §6 events: OpenAPI callbacks, received by --callbacks-listen (conformance/callbacks/); listed only on a
  // document with an operation that documents callbacks.
  c('callbacks.arrive', '§6', 'Each documented callback arrives at the receiver within --callbacks-wait-ms', [
    'callbacks',
  ]),
  c('callbacks.method', '§6', 'Each callback arrives with its documented method', ['callbacks']),
  c('callbacks.body-schema', '§6', "Each callback's body is valid against the callback's request schema", [
    'callbacks',
  ]),
  c(
    'callbacks.undocumented',
    '§6',
    'Nothing arrives at the receiver that the document does not describe (path, method, a second time)',
    ['callbacks'],
  ),
  // §9 versioning
  c('version.v1-segment', '§9', 'The base address ends in /v1 and the operations answer under it', [
    'version',
  ]),
  // Details the interface leaves "not shown": the project's decisions.
  a('assume.client-id-ignored', '§2', 'A client-sent id is rejected (400) or replaced by the server', [
    'generated',
  ]),
  a('assume.unknown-path-404', '§4', 'An unknown path gives 404 with an Error body', ['response']),
  a(
    'assume.media-type-415',
    '§1',
    'A JSON body sent as a Content-Type the operation does not document gives 415 with an Error body',
    ['generated'],
  ),
  a(
    'assume.undocumented-method-405',
    '§4',
    'An undocumented method gives 405 with an Error body and an Allow listing the documented methods',
    ['generated'],
  ),
  a('assume.other-version-absent', '§9', 'The same path under /v2 is not served', ['version']),
  a('assume.retry-after-seconds', '§8', 'Retry-After is a whole number of seconds', ['quota']),
];

/** The shipped document rules, by file (read once, when the runner is loaded). */
export const CATALOGUE: readonly CatalogueFile[] = readCatalogue(CATALOGUE_DIR);

/** The whole catalogue: the engine's rules and every shipped document rule, in the listed order. */
export const RULES: readonly Rule[] = mergeRules(
  ENGINE_RULES,
  CATALOGUE.flatMap((f) => f.rules),
);

/** The catalogue of a run on a document with these operationIds, and the ids of the rules left out. */
export function catalogueFor(operationIds: ReadonlySet<string>): { rules: Rule[]; withheld: Set<string> } {
  const all = CATALOGUE.flatMap((f) => f.rules);
  const kept = all.filter((r) => appliesTo(r, operationIds));
  const withheld = new Set(all.filter((r) => !kept.includes(r)).map((r) => r.id));
  return { rules: mergeRules(ENGINE_RULES, kept), withheld };
}

/** Why `--rule id` cannot run on this document (a document rule whose operations it lacks), or undefined. */
export function withheldRuleProblem(id: string, operationIds: ReadonlySet<string>): string | undefined {
  const rule = CATALOGUE.flatMap((f) => f.rules).find((r) => r.id === id);
  const missing = rule?.operations.filter((op) => !operationIds.has(op)) ?? [];
  if (missing.length === 0) return undefined;
  return `rule "${id}" needs the operation${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which the document lacks`;
}

/** Tags whose rules run only when `--include` names them. */
export const OPT_IN_TAGS: readonly string[] = ['quota'];

/** The rule with this id, if the catalogue has it. */
export function findRule(id: string, extra: readonly Rule[] = []): Rule | undefined {
  return RULES.find((r) => r.id === id) ?? extra.find((r) => r.id === id);
}
