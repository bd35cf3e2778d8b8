/**
 * Pure: one operation -> its fuzz cases (the documented examples, the boundary values of each body property and
 * query parameter, the body as a whole broken). Whether a case must be accepted or refused is what the
 * operation's own validator says of the value sent, so a case never contradicts the document.
 */
import { coerceParam, type OperationSpec, type ParamSpec } from '../../spec/load';
import { objectShape, type Schema } from '../../spec/schema-shape';
import { generateValid } from '../execute/generate-bodies';
import { boundaryProbes } from './boundaries';
import { DELETE, getAt, isObject, pathLabel, setAt, type JsonPath } from './json-path';

export type Phase = 'examples' | 'boundaries' | 'random';

/** What a case sends: a JSON body (or raw text), query parameters, another value for the item id. */
export interface FuzzRequest {
  body?: unknown;
  raw?: string;
  query?: Record<string, string>;
  /** The item id segment replaced by this text (`abc` for an integer id). */
  pathValue?: string;
}

export interface FuzzCase {
  phase: Phase;
  /** What the case does, for the evidence: `body name maxLength+1 ("xxxxx…")`. */
  label: string;
  expect: 'accept' | 'reject';
  request: FuzzRequest;
}

/** How cases are made: the seeded source, the run's prefix, and how a valid body addresses the right item. */
export interface CaseSource {
  random: () => number;
  prefix: string;
  /** Applied to every generated body (the id of the item an update targets, no client id in a create). */
  adjust: (body: unknown) => unknown;
  /** The item id parameter when the operation addresses one item. */
  itemParam?: ParamSpec;
  /** Body paths no case may change (the id an update puts in its body says which item it updates). */
  pinned?: JsonPath[];
}

/** Whether `path` is one of the source's pinned paths. */
export const isPinned = (source: Pick<CaseSource, 'pinned'>, path: JsonPath): boolean =>
  (source.pinned ?? []).some((p) => p.length === path.length && p.every((k, i) => k === path[i]));

const MAX_DEPTH = 2;
const short = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** Whether `op` accepts this body as its request schema says (raw text never). */
export function bodyIsValid(op: OperationSpec, request: FuzzRequest): boolean {
  if (request.raw !== undefined) return false;
  const body = op.requestBody;
  if (!body) return true;
  return request.body === undefined ? !body.required : body.validate(request.body);
}

/** Whether every query parameter of `op` is present when required and valid by its schema. */
export function queryIsValid(op: OperationSpec, query: Record<string, string> = {}): boolean {
  return op.queryParams.every((p) => {
    const raw = query[p.name];
    return raw === undefined ? !p.required : p.validate(coerceParam(p.schema, raw));
  });
}

/** The expectation the document gives a request. */
export function expectationOf(op: OperationSpec, request: FuzzRequest): 'accept' | 'reject' {
  if (request.pathValue !== undefined) return 'reject';
  return bodyIsValid(op, request) && queryIsValid(op, request.query) ? 'accept' : 'reject';
}

/** A fresh valid request: a generated body (its strings carry `prefix`) and the required query parameters. */
export function validRequest(op: OperationSpec, source: CaseSource, prefix: string): FuzzRequest {
  const out: FuzzRequest = {};
  if (op.requestBody?.kind === 'json')
    out.body = source.adjust(generateValid(op.requestBody.schema, source.random, prefix, { full: true }));
  const query = requiredQuery(op, source.random, prefix);
  if (Object.keys(query).length > 0) out.query = query;
  return out;
}

function requiredQuery(op: OperationSpec, random: () => number, prefix: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const p of op.queryParams.filter((q) => q.required)) {
    const text = asQueryText(generateValid(p.schema, random, prefix));
    if (text !== undefined) query[p.name] = text;
  }
  return query;
}

/** A value as a query string carries it; objects and null have no plain form. */
export function asQueryText(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value === null || typeof value === 'object' || value === undefined) return undefined;
  return String(value);
}

/** The boundary cases of `op`. */
export function boundaryCases(op: OperationSpec, source: CaseSource): FuzzCase[] {
  let n = 0;
  const fresh = () => validRequest(op, source, `${source.prefix}-b${(n++).toString(36)}`);
  const out: Array<Omit<FuzzCase, 'expect' | 'phase'>> = [];
  if (op.requestBody?.kind === 'json') out.push(...bodyCases(op.requestBody.schema, fresh, source));
  out.push(...queryCases(op, fresh));
  if (source.itemParam && /integer|number/.test(JSON.stringify(source.itemParam.schema.type ?? '')))
    for (const text of ['abc', '1.5'])
      out.push({
        label: `path ${source.itemParam.name} "${text}"`,
        request: { ...fresh(), pathValue: text },
      });
  return out.map((c) => ({ ...c, phase: 'boundaries', expect: expectationOf(op, c.request) }));
}

type Partial = Omit<FuzzCase, 'expect' | 'phase'>;

function bodyCases(schema: Schema, fresh: () => FuzzRequest, source: CaseSource): Partial[] {
  const out: Partial[] = [
    { label: 'body not JSON', request: { ...fresh(), body: undefined, raw: '{"unterminated": ' } },
    { label: 'body null', request: { ...fresh(), body: null } },
  ];
  const whole = fresh();
  out.push({ label: 'body an array of a valid body', request: { ...whole, body: [whole.body] } });
  const walk = (s: Schema, path: JsonPath) => {
    const shape = objectShape(s);
    if (!shape || path.length > MAX_DEPTH) return;
    for (const name of shape.required) {
      if (isPinned(source, [...path, name])) continue;
      const req = fresh();
      if (isObject(getAt(req.body, path)))
        out.push({
          label: `body ${pathLabel([...path, name])} missing`,
          request: { ...req, body: setAt(req.body, [...path, name], DELETE) },
        });
    }
    if (shape.additional === false) {
      const req = fresh();
      out.push({
        label: `body ${pathLabel(path)} with an extra property`,
        request: { ...req, body: setAt(req.body, [...path, 'fuzzExtra'], 1) },
      });
    }
    for (const [name, prop] of Object.entries(shape.properties)) {
      const at = [...path, name];
      const readOnly = (prop as { readOnly?: unknown }).readOnly === true;
      if (readOnly || shape.uncertain?.has(name) || isPinned(source, at)) continue;
      const sample = getAt(fresh().body, at);
      for (const probe of boundaryProbes(prop, sample)) {
        const req = fresh();
        if (getAt(req.body, path) === undefined && path.length > 0) continue;
        const label = `body ${pathLabel(at)} ${probe.name} (${short(probe.value)})`;
        out.push({ label, request: { ...req, body: setAt(req.body, at, probe.value) } });
      }
      walk(prop, at);
    }
  };
  walk(schema, []);
  return out;
}

function queryCases(op: OperationSpec, fresh: () => FuzzRequest): Partial[] {
  const out: Partial[] = [];
  for (const p of op.queryParams) {
    if (p.required) {
      const req = fresh();
      const query = { ...req.query };
      delete query[p.name];
      out.push({ label: `query ${p.name} missing`, request: { ...req, query } });
    }
    for (const probe of boundaryProbes(p.schema, undefined)) {
      const text = asQueryText(probe.value);
      if (text === undefined) continue;
      const req = fresh();
      out.push({
        label: `query ${p.name} ${probe.name} (${short(text)})`,
        request: { ...req, query: { ...req.query, [p.name]: text } },
      });
    }
  }
  return out;
}
