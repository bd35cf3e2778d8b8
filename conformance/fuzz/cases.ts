/**
 * Pure: the fuzz phase's cases for one operation, per phase: the document's request examples, the boundaries
 * of each constraint, and seeded random bodies (valid ones from the schema, invalid ones by mutation). Whether a
 * case must be accepted or refused is decided by the document's own validator, never by the generator.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { operationObject } from '../../spec/methods';
import { exampleValue } from '../../spec/example-value';
import { objectShape } from '../../spec/schema-shape';
import { generateInvalid, generateValid } from '../generate/values';
import { boundaryCases, EXTRA } from './boundaries';

export type FuzzPhase = 'examples' | 'boundaries' | 'random';
export const PHASES: readonly FuzzPhase[] = ['examples', 'boundaries', 'random'];

/** One body to send and what it probes. */
export interface FuzzCase {
  phase: FuzzPhase;
  label: string;
  body: unknown;
}

type Json = Record<string, unknown>;

/** Every request example the document gives for `op`'s JSON body (media `example`/`examples`, schema `examples`). */
export function documentedExamples(spec: LoadedSpec, op: OperationSpec): unknown[] {
  const body = operationObject(spec.document, op.path, op.method)?.requestBody as
    OpenAPIV3_1.RequestBodyObject | undefined;
  const out: unknown[] = [];
  for (const [type, media] of Object.entries(body?.content ?? {})) {
    if (!/json/i.test(type)) continue;
    if (media.example !== undefined) out.push(media.example);
    for (const ex of Object.values(media.examples ?? {})) {
      const value = exampleValue(ex);
      if (value !== undefined) out.push(value);
    }
    const schemaExamples = (media.schema as { examples?: unknown } | undefined)?.examples;
    if (Array.isArray(schemaExamples)) out.push(...schemaExamples);
  }
  if (out.length === 0 && op.requestBody?.example !== undefined) out.push(op.requestBody.example);
  return out;
}

const withoutKeys = (body: unknown, keys: string[]): unknown => {
  if (!body || typeof body !== 'object' || Array.isArray(body) || keys.length === 0) return body;
  const out = { ...(body as Json) };
  for (const k of keys) delete out[k];
  return out;
};

/** The cases of every phase for `op`, drawn with `random`; `maxExamples` bounds the random phase. */
export function fuzzCases(
  spec: LoadedSpec,
  op: OperationSpec,
  random: () => number,
  prefix: string,
  maxExamples: number,
): FuzzCase[] {
  const schema = op.requestBody?.schema ?? {};
  // An example shared with the answer carries its readOnly values (an id): a client leaves them out (OpenAPI).
  const readOnly = Object.entries(objectShape(schema)?.properties ?? {})
    .filter(([, p]) => (p as { readOnly?: unknown }).readOnly === true)
    .map(([name]) => name);
  const cases: FuzzCase[] = documentedExamples(spec, op).map((body, i) => ({
    phase: 'examples',
    label: `documented example ${i + 1}`,
    body: withoutKeys(body, readOnly),
  }));
  const base = generateValid(schema, random, prefix) as Json;
  if (base && typeof base === 'object' && !Array.isArray(base))
    for (const c of boundaryCases(schema, base)) {
      // A property the schema does not name is the contract's business only where it forbids one; elsewhere
      // refusing it is a server's choice (the mock's, by default), judged by an assumption rule, not here.
      if (c.label === EXTRA && op.requestBody?.validate(c.body) === true) continue;
      cases.push({ phase: 'boundaries', ...c });
    }
  const invalid = generateInvalid(schema, random, prefix, Math.ceil(maxExamples / 2));
  for (let i = 0; i < maxExamples; i++) {
    const mutated = i % 2 === 1 ? invalid[(i - 1) / 2] : undefined;
    if (mutated?.body !== undefined)
      cases.push({ phase: 'random', label: `random ${i + 1}: ${mutated.label}`, body: mutated.body });
    else
      cases.push({ phase: 'random', label: `random ${i + 1}`, body: generateValid(schema, random, prefix) });
  }
  return cases;
}
