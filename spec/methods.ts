/**
 * Pure: the operations of a Path Item, the one list of HTTP methods every tool reads them by. OpenAPI 3.1 gives
 * eight fixed fields (`get` … `trace`); 3.2 adds `query` (the QUERY method: a safe request with a body) and
 * `additionalOperations`, a map from any other method name, as it is sent (`COPY`, `LINK`), to its operation.
 * Methods are lower-cased here, as `OperationSpec.method` holds them.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { isObject } from './json';

/** The Path Item's fixed operation fields, in the order the tools list them (3.2 adds `query`). */
export const PATH_ITEM_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
  'query',
] as const;
export type FixedMethod = (typeof PATH_ITEM_METHODS)[number];

const FIXED: ReadonlySet<string> = new Set(PATH_ITEM_METHODS);

/** An operation of a Path Item and the method it answers (lower-cased). */
export interface PathItemOperation {
  method: string;
  operation: OpenAPIV3_1.OperationObject;
  /** Where it is written, under the Path Item: `get`, `query`, `additionalOperations/COPY`. */
  at: string;
}

/**
 * Every operation of `item`: the fixed fields first, then `additionalOperations` in the document's order. An
 * additional method that names a fixed one (`get`, which the 3.2 schema does not catch in lower case) is left
 * to the fixed field, and so is a second spelling of one method (`COPY` beside `copy`).
 */
export function operationsOf(item: unknown): PathItemOperation[] {
  if (!isObject(item)) return [];
  const out: PathItemOperation[] = [];
  for (const method of PATH_ITEM_METHODS) {
    const operation = item[method];
    if (isObject(operation))
      out.push({ method, operation: operation as OpenAPIV3_1.OperationObject, at: method });
  }
  const extra = item.additionalOperations;
  if (!isObject(extra)) return out;
  const seen = new Set<string>();
  for (const [name, operation] of Object.entries(extra)) {
    const method = name.toLowerCase();
    if (FIXED.has(method) || seen.has(method) || !isMethodToken(name) || !isObject(operation)) continue;
    seen.add(method);
    out.push({
      method,
      operation: operation as OpenAPIV3_1.OperationObject,
      at: `additionalOperations/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    });
  }
  return out;
}

/** The operation object `method` (any case) names on the Path Item at `path`, or undefined. */
export function operationObject(
  document: OpenAPIV3_1.Document,
  path: string,
  method: string,
): OpenAPIV3_1.OperationObject | undefined {
  const wanted = method.toLowerCase();
  return operationsOf(document.paths?.[path]).find((o) => o.method === wanted)?.operation;
}

/** RFC 9110 §9.1: a method is a token (`1*tchar`). */
export function isMethodToken(name: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
}

/**
 * The methods the tools treat as reads (never sent under the runner's --read-only, never an item's change): GET,
 * HEAD, OPTIONS, and QUERY, safe by its definition (draft-ietf-httpbis-safe-method-w-body) although it has a body.
 */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'QUERY']);

/** Is `method` (any case) a read? */
export const isReadMethod = (method: string): boolean => READS.has(method.toUpperCase());
