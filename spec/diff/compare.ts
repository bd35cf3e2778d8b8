/**
 * Pure: the changes between two loaded versions of a document, each classified for clients. Breaking: an
 * operation, status or response property removed; a request parameter or property newly required; a type,
 * enum, bound or format narrowed on the request side or widened on the response side; security changed.
 * Everything else is compatible. Both documents come through spec/load (bundled, upgraded to 3.1, compiled), so
 * `$ref`s, Swagger 2.0 and 3.0 are already one shape, and bodies are compared in their request or response view.
 */
import type { CompiledSpec, OperationSpec, ParamSpec, ResponseSpec } from '../compile';
import { diffSchemas } from './schema-diff';
import type { Change } from './types';

/** `/pets/{petId}` and `/pets/{id}` are the same path. */
export const templateKey = (method: string, path: string): string =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

type Base = Pick<Change, 'method' | 'path' | 'operationId'>;

/** Every change from `before` to `after`, operations in the old document's order, then the added ones. */
export function diffSpecs(before: CompiledSpec, after: CompiledSpec): Change[] {
  const next = new Map(after.operations.map((op) => [templateKey(op.method, op.path), op]));
  const out: Change[] = [];
  const matched = new Set<OperationSpec>();
  for (const op of before.operations) {
    const base: Base = { method: op.method.toUpperCase(), path: op.path, operationId: op.operationId };
    const other = next.get(templateKey(op.method, op.path));
    if (!other) {
      out.push({
        ...base,
        kind: 'operation.removed',
        breaking: true,
        side: 'operation',
        where: '',
        message: `${base.method} ${op.path} removed`,
      });
      continue;
    }
    matched.add(other);
    out.push(...diffOperation(before, after, op, other, base));
  }
  for (const op of after.operations)
    if (!matched.has(op))
      out.push({
        method: op.method.toUpperCase(),
        path: op.path,
        operationId: op.operationId,
        kind: 'operation.added',
        breaking: false,
        side: 'operation',
        where: '',
        message: `${op.method.toUpperCase()} ${op.path} added`,
      });
  return out;
}

function diffOperation(
  before: CompiledSpec,
  after: CompiledSpec,
  a: OperationSpec,
  b: OperationSpec,
  base: Base,
): Change[] {
  const out: Change[] = [...securityChanges(before, after, a, b, base)];
  if (!a.deprecated && b.deprecated)
    out.push({
      ...base,
      kind: 'operation.deprecated',
      breaking: false,
      side: 'operation',
      where: '',
      message: 'now deprecated',
    });
  out.push(...parameterChanges(a, b, base), ...bodyChanges(a, b, base));
  for (const [status, res] of a.responses) {
    const other = b.responses.get(status);
    if (!other) {
      out.push({
        ...base,
        status,
        kind: 'response.status.removed',
        breaking: true,
        side: 'response',
        where: '',
        message: `status ${status} no longer documented`,
      });
      continue;
    }
    out.push(...responseChanges(res, other, { ...base, status }));
  }
  for (const status of b.responses.keys())
    if (!a.responses.has(status))
      out.push({
        ...base,
        status,
        kind: 'response.status.added',
        breaking: false,
        side: 'response',
        where: '',
        message: `status ${status} added`,
      });
  return out;
}

/** What a security requirement means: each alternative as its schemes' definitions (names may be renamed). */
function securityText(spec: CompiledSpec, op: OperationSpec): string {
  const scheme = (name: string) =>
    JSON.stringify(spec.securitySchemes[name] ?? name, ['type', 'scheme', 'in', 'name']);
  return JSON.stringify(op.security.map((alt) => alt.map(scheme).sort()).sort());
}

function securityChanges(
  before: CompiledSpec,
  after: CompiledSpec,
  a: OperationSpec,
  b: OperationSpec,
  base: Base,
): Change[] {
  const was = securityText(before, a);
  const now = securityText(after, b);
  if (was === now) return [];
  const names = (op: OperationSpec) =>
    op.security.length ? op.security.map((alt) => alt.join(' + ')).join(' or ') : 'none';
  return [
    {
      ...base,
      kind: 'security.changed',
      breaking: true,
      side: 'security',
      where: '',
      message: `security ${names(a)} became ${names(b)}`,
    },
  ];
}

/** A parameter as compared: the 3.2 `in: querystring` one too (its schema is that of its one media type). */
type Param = Pick<ParamSpec, 'name' | 'required' | 'schema'> & { in: ParamSpec['in'] | 'querystring' };

const paramsOf = (op: OperationSpec): Param[] => [
  ...op.pathParamSpecs,
  ...op.queryParams,
  ...op.headerParams,
  ...(op.querystring ? [{ ...op.querystring, in: 'querystring' as const }] : []),
];
const paramKey = (p: Param) =>
  `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.in === 'path' ? '' : p.name}`;

function parameterChanges(a: OperationSpec, b: OperationSpec, base: Base): Change[] {
  const out: Change[] = [];
  const before = new Map(paramsOf(a).map((p, i) => [p.in === 'path' ? `path ${i}` : paramKey(p), p]));
  // Path parameters are matched by position (the template matched already).
  const after = new Map(paramsOf(b).map((p, i) => [p.in === 'path' ? `path ${i}` : paramKey(p), p]));
  for (const [key, p] of after) {
    const old = before.get(key);
    const where = `${p.in} parameter ${p.name}`;
    if (!old) {
      if (p.required)
        out.push({
          ...base,
          kind: 'request.parameter.required',
          breaking: true,
          side: 'request',
          where,
          message: `new required ${where}`,
        });
      else
        out.push({
          ...base,
          kind: 'request.parameter.added',
          breaking: false,
          side: 'request',
          where,
          message: `new optional ${where}`,
        });
      continue;
    }
    if (!old.required && p.required)
      out.push({
        ...base,
        kind: 'request.parameter.required',
        breaking: true,
        side: 'request',
        where,
        message: `${where} is now required`,
      });
    for (const c of diffSchemas(old.schema, p.schema, 'request'))
      out.push({
        ...base,
        kind: c.kind,
        breaking: c.breaking,
        side: 'request',
        where: `${where}${c.where === '/' ? '' : c.where}`,
        message: c.message,
      });
  }
  for (const [key, p] of before)
    if (!after.has(key))
      out.push({
        ...base,
        kind: 'request.parameter.removed',
        breaking: false,
        side: 'request',
        where: `${p.in} parameter ${p.name}`,
        message: `${p.in} parameter ${p.name} no longer documented`,
      });
  return out;
}

function bodyChanges(a: OperationSpec, b: OperationSpec, base: Base): Change[] {
  const out: Change[] = [];
  const was = a.requestBody;
  const now = b.requestBody;
  if (!now)
    return was
      ? [
          {
            ...base,
            kind: 'request.body.removed',
            breaking: false,
            side: 'request',
            where: 'body',
            message: 'the request body is no longer documented',
          },
        ]
      : [];
  if (!was) {
    out.push({
      ...base,
      kind: now.required ? 'request.body.required' : 'request.body.added',
      breaking: now.required,
      side: 'request',
      where: 'body',
      message: `a ${now.required ? 'required' : 'optional'} request body was added`,
    });
    return out;
  }
  if (!was.required && now.required)
    out.push({
      ...base,
      kind: 'request.body.required',
      breaking: true,
      side: 'request',
      where: 'body',
      message: 'the request body is now required',
    });
  const lower = (list: string[]) => list.map((m) => m.toLowerCase());
  for (const m of lower(was.mediaTypes))
    if (!lower(now.mediaTypes).includes(m))
      out.push({
        ...base,
        kind: 'request.media-type.removed',
        breaking: true,
        side: 'request',
        where: 'body',
        message: `${m} no longer accepted`,
      });
  for (const c of diffSchemas(was.schema, now.schema, 'request'))
    out.push({
      ...base,
      kind: c.kind,
      breaking: c.breaking,
      side: 'request',
      where: `body ${c.where}`,
      message: c.message,
    });
  return out;
}

function responseChanges(a: ResponseSpec, b: ResponseSpec, base: Base & { status: string }): Change[] {
  const out: Change[] = [];
  const lower = (list: string[]) => list.map((m) => m.toLowerCase());
  for (const m of lower(a.mediaTypes))
    if (!lower(b.mediaTypes).includes(m))
      out.push({
        ...base,
        kind: 'response.media-type.removed',
        breaking: true,
        side: 'response',
        where: 'body',
        message: `${m} no longer answered`,
      });
  if (a.schema && b.schema)
    for (const c of diffSchemas(a.schema, b.schema, 'response'))
      out.push({
        ...base,
        kind: c.kind,
        breaking: c.breaking,
        side: 'response',
        where: `body ${c.where}`,
        message: c.message,
      });
  const headers = new Map(b.headers.map((h) => [h.name.toLowerCase(), h]));
  for (const h of a.headers) {
    const other = headers.get(h.name.toLowerCase());
    const where = `header ${h.name}`;
    if (!other)
      out.push({
        ...base,
        kind: 'response.header.removed',
        breaking: true,
        side: 'response',
        where,
        message: `${h.name} no longer documented`,
      });
    else if (h.required && !other.required)
      out.push({
        ...base,
        kind: 'response.header.optional',
        breaking: true,
        side: 'response',
        where,
        message: `${h.name} is no longer always sent`,
      });
  }
  return out;
}
