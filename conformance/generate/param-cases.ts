/**
 * Pure: the parameter cases of one operation that need no state (no item created first): each path parameter
 * given a value its schema refuses (by type, format, bounds, enum, pattern), each query parameter likewise (and a
 * required one left out), and on a GET or DELETE whose last segment is a parameter, a well-formed id no run made.
 * Which values are refused is not decided here: the shared request rule (spec/http/request-rules.ts, the one the
 * mock answers and the proxy's judge records) judges every candidate, so only what the document forbids is a case.
 */
import type { LoadedSpec, OperationSpec, ParamSpec } from '../../spec/load';
import { documentedResponse } from '../../spec/compile';
import { matchPath } from '../../spec/http/match';
import { parameterProblem } from '../../spec/http/request-rules';
import { arrayItems, typesOf } from '../../spec/schema-shape';
import { valuesFor } from './constraint-values';
import { unknownParamText, validParamText } from './param-values';

export interface ParamCase {
  /** The last part of its rule id: `path-<name>`, `query-<name>` or `unknown-id`. */
  name: string;
  /** What the case sends, for the evidence (`path b "1.5"`). */
  label: string;
  /** Every path parameter's text (the case's own, and valid ones beside it). */
  path: Record<string, string>;
  /** The path parameter whose value is the case's (the others are only valid ones). */
  own?: string;
  /** The query values the case names (the client fills in the other required ones). */
  query: Record<string, string>;
  /** A required query parameter the case leaves out. */
  omit?: string;
  /** `refused`: the document forbids the value (`problem` says why); `unknown`: well-formed, names nothing. */
  expect: 'refused' | 'unknown';
  problem?: string;
}

const slug = (name: string): string =>
  name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'parameter';

/** Texts a parameter's schema may refuse beyond its stated bounds: a fraction, a word, a broken pattern. */
const EXTRA_TEXTS = ['maybe', '1.5', '!~'];

/**
 * Candidate texts for `p`, each once: its constraints' values written as text (an array's from its items, one item
 * alone, so that every style reads it the same), then the extras. Empty texts are left out of a path.
 */
function candidateTexts(p: ParamSpec): string[] {
  const items = typesOf(p.schema).includes('array') ? arrayItems(p.schema) : null;
  const schema = (items ?? p.schema) as Record<string, unknown>;
  const out = new Set<string>();
  for (const { value } of valuesFor(schema, undefined))
    if (value !== null && typeof value !== 'object') out.add(String(value));
  for (const text of EXTRA_TEXTS) out.add(text);
  return [...out].filter((text) => p.in !== 'path' || text !== '');
}

/**
 * The texts of `p` the shared request rule refuses, each with that rule's message; one per reason and per kind of
 * text (a number, or not: `1.5` for an integer as well as `forty-two`, since a lenient parser takes the one).
 */
function refusedTexts(
  op: OperationSpec,
  p: ParamSpec,
): Array<{ label: string; text: string; problem: string }> {
  const seen = new Set<string>();
  return candidateTexts(p).flatMap((text) => {
    const problem = parameterProblem(op, [p], (name) => (name === p.name ? text : undefined));
    const key = `${problem?.message ?? ''}|${Number.isNaN(Number(text))}`;
    if (!problem || seen.has(key)) return [];
    seen.add(key);
    return [{ label: JSON.stringify(text), text, problem: problem.message }];
  });
}

/** Whether a query parameter's value is written in a form this module does not vary (an object: deepObject, JSON). */
const writtenAsObject = (p: ParamSpec): boolean => typesOf(p.schema).includes('object');

/**
 * Every stateless parameter case of `op`; `runPrefix` makes the unknown id recognisable; `spec` (the document the
 * operation is in) tells where a path value left empty is sent.
 */
export function paramCases(op: OperationSpec, runPrefix: string, spec?: LoadedSpec): ParamCase[] {
  const valid = Object.fromEntries(op.pathParamSpecs.map((p) => [p.name, validParamText(p)]));
  const cases: ParamCase[] = [];
  for (const p of op.pathParamSpecs)
    for (const r of [...refusedTexts(op, p), ...emptyText(op, p, valid, spec)])
      cases.push({
        name: `path-${slug(p.name)}`,
        label: `path ${p.name} ${r.label}`,
        path: { ...valid, [p.name]: r.text },
        own: p.name,
        query: {},
        expect: 'refused',
        problem: r.problem,
      });
  for (const p of op.queryParams) {
    if (writtenAsObject(p)) continue;
    const name = `query-${slug(p.name)}`;
    if (p.required)
      cases.push({
        name,
        label: `query ${p.name} left out (required)`,
        path: valid,
        query: {},
        omit: p.name,
        expect: 'refused',
        problem: `query parameter ${p.name} is required`,
      });
    for (const r of refusedTexts(op, p))
      cases.push({
        name,
        label: `query ${p.name} ${r.label}`,
        path: valid,
        query: { [p.name]: r.text },
        expect: 'refused',
        problem: r.problem,
      });
  }
  const unknown = unknownIdCase(op, valid, runPrefix);
  return unknown ? [...cases, unknown] : cases;
}

/**
 * A path value left empty (`/api/bessj//3`): a required value that is not there, refused whatever the schema. A
 * router that matches no template answers 404, so it is sent where the operation documents one (a 404, `4XX`
 * or `default`), and only where no documented path takes the request once a router merges a double slash or
 * drops a trailing one (`/todos/` is `/todos` to many): the answer is this operation's, by the runner's intent.
 */
function emptyText(
  op: OperationSpec,
  p: ParamSpec,
  valid: Record<string, string>,
  spec: LoadedSpec | undefined,
): Array<{ label: string; text: string; problem: string }> {
  if (!spec || !documentedResponse(op, 404)) return [];
  const path = fillPath(op.path, { ...valid, [p.name]: '' });
  const merged = path.replace(/\/{2,}/g, '/');
  const forms = new Set([path, merged, path.replace(/(.)\/$/, '$1'), merged.replace(/(.)\/$/, '$1')]);
  const taken = [...forms].some((form) => {
    const m = matchPath(spec, '', op.method, form);
    return !('status' in m) || m.status !== 404;
  });
  if (taken) return [];
  return [
    { label: '"" (left empty)', text: '', problem: `path parameter ${p.name} is empty (a required value)` },
  ];
}

/** A GET or DELETE on `…/{id}` with an id no run made (every other parameter valid), when one can be written. */
function unknownIdCase(
  op: OperationSpec,
  valid: Record<string, string>,
  runPrefix: string,
): ParamCase | undefined {
  if (!['get', 'delete'].includes(op.method.toLowerCase())) return undefined;
  const last = /\{([^}]+)\}$/.exec(op.path)?.[1];
  const p = op.pathParamSpecs.find((q) => q.name === last);
  const text = p && unknownParamText(p, runPrefix);
  if (!p || text === undefined) return undefined;
  return {
    name: 'unknown-id',
    label: `path ${p.name} ${JSON.stringify(text)} (well-formed, never created)`,
    path: { ...valid, [p.name]: text },
    own: p.name,
    query: {},
    expect: 'unknown',
  };
}

/** `template` with each parameter's text, percent-encoded. */
export function fillPath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(values[name]),
  );
}
