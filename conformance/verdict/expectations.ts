/** A scenario step's expectations against one response: a list of problems, empty when they hold. */
import { formatAjvErrors, type LoadedSpec } from '../../spec/load';
import type { StepExpect } from '../load/scenario-schema';
import { errorBodyProblem } from '../../spec/http/error-body';
import { getPointer, render } from '../send/template';
import type { RecordedResponse } from '../types';

/** JSON type name of a value, with `integer` for whole numbers. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every problem of `res` against `expect`, with templates filled from `vars`. */
export function checkExpectations(
  expect: StepExpect,
  res: RecordedResponse,
  spec: LoadedSpec,
  vars: Readonly<Record<string, unknown>>,
  operationId?: string,
): string[] {
  const problems: string[] = [];
  if (expect.status !== undefined) {
    const wanted = Array.isArray(expect.status) ? expect.status : [expect.status];
    if (!wanted.includes(res.status)) problems.push(`status ${res.status}, expected ${wanted.join(' or ')}`);
  }
  if (expect.schema) {
    const validate = spec.schemas.get(expect.schema);
    if (validate && !validate(res.json))
      problems.push(`body is not a ${expect.schema}: ${formatAjvErrors(validate.errors)}`);
  }
  if (expect.error) {
    const problem = errorBodyProblem(spec, res, operationId);
    if (problem) problems.push(problem);
  }
  for (const [pointer, raw] of Object.entries(expect.equals ?? {})) {
    const wanted = render(raw, vars).value;
    const actual = getPointer(res.json, pointer);
    if (!same(actual, wanted))
      problems.push(`${pointer} is ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);
  }
  for (const [pointer, type] of Object.entries(expect.types ?? {})) {
    const actual = jsonType(getPointer(res.json, pointer));
    if (actual !== type && !(type === 'number' && actual === 'integer'))
      problems.push(`${pointer} is ${actual}, expected ${type}`);
  }
  if (expect.contains) problems.push(...containsProblems(expect.contains, res.json, vars));
  return problems;
}

function containsProblems(
  contains: NonNullable<StepExpect['contains']>,
  body: unknown,
  vars: Readonly<Record<string, unknown>>,
): string[] {
  const at = contains.at ?? '';
  const list = getPointer(body, at);
  const item = render(contains.item, vars).value as Record<string, unknown>;
  if (!Array.isArray(list)) return [`${at || 'body'} is not an array`];
  const found = list.some(
    (entry) =>
      entry !== null &&
      typeof entry === 'object' &&
      Object.entries(item).every(([k, v]) => same((entry as Record<string, unknown>)[k], v)),
  );
  return found
    ? []
    : [`no item of ${at || 'the list'} (${list.length} items) matches ${JSON.stringify(item)}`];
}
