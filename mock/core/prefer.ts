/**
 * The `Prefer` header as Prism reads it (issue 33), so its users need no relearning: `code=NNN` (a documented
 * status), `example=NAME` (that named example of the chosen status), `dynamic=true` (values generated from the
 * schema instead of the example) and `delay=MS` (the answer held back, at most MAX_PREFER_DELAY_MS).
 * Preferences are separated by commas or semicolons (`Prefer: code=404, example=closed`). Pure.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { OperationSpec } from '../../spec/compile';
import { successStatusOf } from '../../spec/success';
import { operationObject } from '../../spec/methods';
import { exampleValue } from '../../spec/example-value';
import type { RoutedCtx } from './context';

export interface Preferences {
  code?: string;
  example?: string;
  dynamic?: boolean;
  /** As written; checked by checkDelay. */
  delay?: string;
}

/** The longest `Prefer: delay=MS` honoured; more is a 400 (a caller cannot park a connection for long). */
export const MAX_PREFER_DELAY_MS = 10_000;

const PAIR = /([A-Za-z][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^,;\s]*)/g;

/** Pure: the preferences a `Prefer` header names (the first of each wins). */
export function parsePrefer(header: string | undefined): Preferences {
  const out: Preferences = {};
  if (!header) return out;
  for (const m of header.matchAll(PAIR)) {
    const name = (m[1] ?? '').toLowerCase();
    const raw = m[2] ?? '';
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (name === 'code' && out.code === undefined) out.code = value;
    else if (name === 'example' && out.example === undefined) out.example = value;
    else if (name === 'dynamic' && out.dynamic === undefined) out.dynamic = value.toLowerCase() === 'true';
    else if (name === 'delay' && out.delay === undefined) out.delay = value;
  }
  return out;
}

/** Pure: the delay asked for in milliseconds, or why it is refused. */
export function checkDelay(raw: string | undefined): { ms: number } | { problem: string } | undefined {
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || ms > MAX_PREFER_DELAY_MS)
    return {
      problem: `Prefer: delay=${raw.slice(0, 40)} must be whole milliseconds from 0 to ${MAX_PREFER_DELAY_MS}`,
    };
  return { ms };
}

/** The status an answer takes when no `code=` is asked for: the documented success, else the first documented. */
export function defaultStatus(operation: OperationSpec): number {
  const success = successStatusOf(operation);
  if (success !== undefined) return success;
  const first = [...operation.responses.keys()].filter((s) => /^[2-5]\d\d$/.test(s)).sort()[0];
  return first ? Number(first) : 200;
}

const named = new WeakMap<OperationSpec, Map<string, ReadonlyMap<string, unknown>>>();

/**
 * The named examples (`examples:` of the answer's JSON media type, else its first) documented for `status`
 * (its own entry, else its range, else `default`), read from the dereferenced document once per operation and
 * status. An `example:` alone names nothing.
 */
export function namedExamples(
  document: OpenAPIV3_1.Document,
  operation: OperationSpec,
  status: number,
): ReadonlyMap<string, unknown> {
  let byStatus = named.get(operation);
  if (!byStatus) named.set(operation, (byStatus = new Map()));
  const key = String(status);
  const known = byStatus.get(key);
  if (known) return known;
  const found = new Map<string, unknown>();
  const op = operationObject(document, operation.path, operation.method);
  const responses = op?.responses ?? {};
  const res = (responses[key] ?? responses[`${key[0] ?? ''}XX`] ?? responses.default) as
    OpenAPIV3_1.ResponseObject | undefined;
  const content = res?.content ?? {};
  const type =
    Object.keys(content).find((t) => /^application\/(json|[\w.+-]+\+json)\b/i.test(t)) ??
    Object.keys(content)[0];
  const examples = type ? content[type]?.examples : undefined;
  for (const [name, ex] of Object.entries(examples ?? {})) {
    const value = exampleValue(ex);
    if (value !== undefined) found.set(name, value);
  }
  byStatus.set(key, found);
  return found;
}

/** The status an answer takes: `Prefer: code=`, else the action's success, else the documented one. */
export function chosenStatus(ctx: RoutedCtx, operation: OperationSpec): number {
  if (ctx.preferStatus !== undefined) return ctx.preferStatus;
  return ctx.bound.successStatus ?? defaultStatus(operation);
}
