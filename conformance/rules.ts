/**
 * The catalogue of rules the runner checks. Ids are stable: reports, CI filters (`--rule`) and scenario files
 * refer to them. The engine's rules hold for any document (§ cites the interface document's sections);
 * a document's own rules are data (conformance/scenarios/catalogue/), listed when the document has their
 * operations. `assumption` rules check a detail the interface leaves "not shown" and fail only with --strict.
 */
import path from 'node:path';
import { projectRoot } from '../spec/paths';
import { appliesTo, mergeRules, readCatalogue, type CatalogueFile } from './catalogue';
import type { ResponseRuleId } from '../spec/http/response-checks';
import type { Rule } from './types';

/** The folder of the shipped document's own rules. */
export const CATALOGUE_DIR = path.join(projectRoot(), 'conformance', 'scenarios', 'catalogue');

/**
 * Which document or assumption a rule belongs to. `any-document`: it follows from what any document states.
 * `pet-store`: a promise of the pet store's interface (the shipped document's § catalogue), data of that document:
 * its /v1 segment and no other version (§9), its X-RateLimit-* headers and their values (§8). The engine runs
 * these only where a document makes the same promise (a /v1 base path; the headers on the answer or documented).
 */
export type RuleBelongsTo = 'any-document' | 'pet-store';

/** A rule of the table, less its id (the table's key), with the document it belongs to. */
type RuleEntry = Omit<Rule, 'id'> & { belongsTo: RuleBelongsTo };

const c = (source: string, title: string, tags: string[]): RuleEntry => ({
  title,
  source,
  kind: 'contract',
  tags,
  belongsTo: 'any-document',
});
const a = (source: string, title: string, tags: string[]): RuleEntry => ({
  ...c(source, title, tags),
  kind: 'assumption',
  tags: [...tags, 'assumption'],
});
/** A rule of the pet store's own contract. */
const petStore = (rule: RuleEntry): RuleEntry => ({ ...rule, belongsTo: 'pet-store' });

/**
 * The rules every document gets, keyed by id: the one list of engine rule ids. `RuleId` is derived from it, so an
 * id a check emits or lists that is not here does not compile; every id `spec/http/response-checks.ts` judges
 * must be a key (`satisfies`).
 */
export const ENGINE_RULE_TABLE = {
  // §5: every operation requires a bearer key; a missing or invalid one gives 401 with an Error body.
  // Per security scheme the document declares (bearer, basic, apiKey in a header, query or cookie).
  'auth.missing-key': c('§5', 'No credential gives 401 with an Error body on every secured operation', [
    'auth',
  ]),
  'auth.wrong-scheme': c(
    '§5',
    'The key in a scheme the operation does not accept (Basic for bearer) gives 401 with an Error body',
    ['auth'],
  ),
  'auth.empty-bearer': c(
    '§5',
    'An empty credential (bearer token, Basic, API key) gives 401 with an Error body',
    ['auth'],
  ),
  'auth.unknown-key': c('§5', 'An unknown key gives 401 with an Error body on every secured operation', [
    'auth',
  ]),
  // Generated from the request body schemas (seeded).
  'body.generated-valid': c('§2', 'Generated schema-valid request bodies are accepted', ['generated']),
  'body.generated-invalid': c(
    '§2',
    'Generated schema-violating request bodies are rejected with 400 (or the documented 422)',
    ['generated'],
  ),
  'methods.undocumented': c('§4', 'An undocumented method on a documented path does not succeed', [
    'generated',
  ]),
  'operations.reached': c(
    '§4',
    'Every selected operation is called with a valid request (path values from its examples, else its schema) and answers',
    ['generated'],
  ),
  // Checked on every response of every step.
  'response.no-5xx': c('§4', 'No response is a server error (5xx)', ['response']),
  'response.documented-status': c('§4', 'Every status is one the operation documents', ['response']),
  'response.json': c('§1', 'Every response is application/json with a JSON body', ['response']),
  'response.body-schema': c('§2', 'Every body matches the schema documented for its operation and status', [
    'response',
  ]),
  'response.headers': c('§8', 'Documented headers are present and valid (rate-limit headers are integers)', [
    'response',
  ]),
  'response.empty-body': c(
    '§4',
    'A response has a body exactly when its status documents content (an error may carry its error body)',
    ['response'],
  ),
  'errors.error-body': c('§7', 'Every error response has an Error body whose status equals the HTTP status', [
    'response',
  ]),
  // §8 rate limits
  'ratelimit.values': petStore(
    c('§8', 'Remaining <= Limit, and Reset is a future Unix time within a day', ['ratelimit']),
  ),
  'ratelimit.decrement': petStore(
    c('§8', 'X-RateLimit-Remaining decreases by one per counted request', ['ratelimit']),
  ),
  // IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11): skipped when the target sends none.
  'ratelimit.ietf-syntax': c('§8', 'RateLimit and RateLimit-Policy are valid structured field Lists', [
    'ratelimit',
  ]),
  'ratelimit.ietf-quota': c('§8', "RateLimit's r never exceeds its policy's q", ['ratelimit']),
  'ratelimit.ietf-countdown': c('§8', "RateLimit's r decreases by one per counted request", ['ratelimit']),
  'ratelimit.ietf-retry-after': c('§8', "A 429's Retry-After is not earlier than RateLimit's t", [
    'ratelimit',
  ]),
  'quota.429-after-limit': c(
    '§8',
    'Once the limit is spent, requests get 429 with an Error and Retry-After',
    ['quota'],
  ),
  'quota.burst-exact': c('§8', 'A parallel burst that spends the limit admits exactly the limit', ['quota']),
  // §6 events: OpenAPI callbacks, received by --callbacks-listen (conformance/callbacks/); listed only on a
  // document with an operation that documents callbacks.
  'callbacks.arrive': c('§6', 'Each documented callback arrives at the receiver within --callbacks-wait-ms', [
    'callbacks',
  ]),
  'callbacks.method': c('§6', 'Each callback arrives with its documented method', ['callbacks']),
  'callbacks.body-schema': c('§6', "Each callback's body is valid against the callback's request schema", [
    'callbacks',
  ]),
  'callbacks.undocumented': c(
    '§6',
    'Nothing arrives at the receiver that the document does not describe (path, method, a second time)',
    ['callbacks'],
  ),
  // §9 versioning
  'version.v1-segment': petStore(
    c('§9', 'The base address ends in /v1 and the operations answer under it', ['version']),
  ),
  // Details the interface leaves "not shown": the project's decisions.
  'assume.client-id-ignored': a('§2', 'A client-sent id is rejected (400) or replaced by the server', [
    'generated',
  ]),
  'assume.unknown-path-404': a('§4', 'An unknown path gives 404 with an Error body', ['response']),
  'assume.media-type-415': a(
    '§1',
    'A JSON body sent as a Content-Type the operation does not document gives 415 with an Error body',
    ['generated'],
  ),
  'assume.undocumented-method-405': a(
    '§4',
    'An undocumented method gives 405 with an Error body and an Allow listing the documented methods',
    ['generated'],
  ),
  'assume.other-version-absent': petStore(a('§9', 'The same path under /v2 is not served', ['version'])),
  'assume.retry-after-seconds': a('§8', 'Retry-After is a whole number of seconds', ['quota']),
} as const satisfies Record<ResponseRuleId, RuleEntry> & Record<string, RuleEntry>;

/** The id of an engine rule. */
export type EngineRuleId = keyof typeof ENGINE_RULE_TABLE;

/**
 * The ids a check may emit: an engine rule's, or one generated from the document or read from a catalogue or
 * scenario file (those are data, so only their prefix is typed; conformance/generated-rules.ts lists them).
 */
export type RuleId = EngineRuleId | GeneratedRuleId | DataRuleId | 'response.max-time';

/** A rule generated from the document (conformance/generated-rules.ts, conformance/fuzz/): typed by its prefix. */
export type GeneratedRuleId =
  `crud.${string}` | `body.${string}` | `params.${string}` | `fuzz.${string}` | `replay.${string}`;

/** A rule whose id has this type (a generated rule keeps its prefix in its type). */
export type RuleOf<Id extends RuleId = RuleId> = Omit<Rule, 'id'> & { id: Id };

/** The id of a rule read from data (a catalogue or scenario file, a saved failure): marked where it is read. */
export type DataRuleId = string & { readonly dataRule: true };

/** An id read from a file, for a check to emit: the file, not the engine, vouches for it. */
export const dataRuleId = (id: string): DataRuleId => id as DataRuleId;

/** The engine's rules as a list, in the table's order (as reports show them: without `belongsTo`). */
export const ENGINE_RULES: readonly Rule[] = Object.entries(ENGINE_RULE_TABLE).map(([id, r]) => ({
  id,
  title: r.title,
  source: r.source,
  kind: r.kind,
  tags: r.tags,
}));

/** The ids of the pet store's own rules (`belongsTo: 'pet-store'`). */
export const PET_STORE_RULE_IDS: readonly EngineRuleId[] = (
  Object.keys(ENGINE_RULE_TABLE) as EngineRuleId[]
).filter((id) => ENGINE_RULE_TABLE[id].belongsTo === 'pet-store');

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
