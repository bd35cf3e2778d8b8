/**
 * The one answer to "what is the success of this operation": which statuses a server may answer it with, which
 * one the mock answers, and the response (schema, example) that documents it. Ranges (`2XX`) and a success
 * documented only as `default` (a health check written with `default` alone) count, as OpenAPI says they do.
 */
import { documentedResponse, type OperationSpec, type ResponseSpec } from './compile';
import type { Action } from './resource-types';
import type { Schema } from './schema-shape';

/** The 2xx statuses registered with IANA: what a `2XX` range admits. */
const REGISTERED_2XX = ['200', '201', '202', '203', '204', '205', '206', '207', '208', '226'];

/** The status an action answers when only a range documents it (RFC 9110: a create that made something is 201). */
const NATURAL: Partial<Record<Action, number>> = { create: 201, remove: 204 };
/** Which documented status each action prefers: a create documented as 200 and 201 answers 201. */
const PREFERRED: Partial<Record<Action, string[]>> = {
  create: ['201', '200', '202'],
  remove: ['204', '200', '202'],
};

const exact2xx = (op: OperationSpec): string[] =>
  [...op.responses.keys()].filter((s) => /^2\d\d$/.test(s)).sort();

/** `default` is the success where nothing else is (every other documented status an error). */
const defaultIsSuccess = (op: OperationSpec): boolean =>
  op.responses.has('default') && [...op.responses.keys()].every((s) => s === 'default' || /^[45]/.test(s));

/** Is success documented by a range or by `default` (any 2xx then conforms)? */
const openSuccess = (op: OperationSpec): boolean => op.responses.has('2XX') || defaultIsSuccess(op);

/** The statuses a successful call may answer: each documented 2xx; every 2xx under a `2XX` range or a `default`. */
export function successStatuses(op: OperationSpec): string[] {
  const exact = exact2xx(op);
  if (!openSuccess(op)) return exact;
  return [...new Set([...exact, ...REGISTERED_2XX])];
}

/**
 * The status the mock answers a successful call with (a create prefers 201, a delete 204, anything else 200,
 * among those documented; else the lowest documented 2xx; else, under a range or `default`, the action's
 * natural status); undefined when the operation documents no success at all.
 */
export function successStatusOf(op: OperationSpec, action?: Action): number | undefined {
  const exact = exact2xx(op);
  for (const s of (action && PREFERRED[action]) ?? ['200']) if (exact.includes(s)) return Number(s);
  if (exact[0] !== undefined) return Number(exact[0]);
  if (!openSuccess(op)) return undefined;
  // A range with a body documented answers it: a delete documented `2XX` with a schema answers 200 with it.
  const range = op.responses.get('2XX') ?? op.responses.get('default');
  const natural = (action && NATURAL[action]) ?? 200;
  return natural === 204 && range?.schema ? 200 : natural;
}

/** The status the mock answers an action with: its documented success, else the action's natural one. */
export function answerStatus(op: OperationSpec, action: Action): number {
  return successStatusOf(op, action) ?? NATURAL[action] ?? 200;
}

/** The success status and the response that documents it, or undefined when none is documented. */
export function successOf(
  op: OperationSpec,
  action?: Action,
): { status: number; response?: ResponseSpec } | undefined {
  const status = successStatusOf(op, action);
  return status === undefined ? undefined : { status, response: documentedResponse(op, status) };
}

/** The first schema a success answer documents (the chosen status's, else another 2xx's, else the range's). */
export function successSchema(op: OperationSpec | undefined, action?: Action): Schema | undefined {
  if (!op) return undefined;
  const chosen = successOf(op, action)?.response?.schema;
  if (chosen) return chosen;
  for (const s of exact2xx(op)) {
    const schema = op.responses.get(s)?.schema;
    if (schema) return schema;
  }
  return undefined;
}

/** Every documented success response (each 2xx, the range, a success `default`), for what they all show. */
export function successResponses(op: OperationSpec): ResponseSpec[] {
  const out = exact2xx(op).map((s) => op.responses.get(s) as ResponseSpec);
  const range = op.responses.get('2XX');
  if (range) out.push(range);
  const d = op.responses.get('default');
  if (d && defaultIsSuccess(op)) out.push(d);
  return out;
}
