/**
 * Pure: visit every Schema Object of an OpenAPI document, once each, with the JSON pointer where it is first
 * found. Works on a dereferenced document (shared and circular schemas) as on one with `$ref`s left in.
 */
import { isObject } from './json';
import { ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './schema-keywords';

type Json = Record<string, unknown>;
export type SchemaVisitor = (schema: Json, pointer: string) => void;

/** Keys of the document (outside schemas) whose values are examples or vendor data: never walked. */
const DATA_KEYS = new Set(['example', 'examples', 'value', 'default', 'enum', 'const']);

/** One JSON pointer segment: `~` and `/` escaped as RFC 6901 says. */
export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Call `visit` for each schema in `document`, breadth first: the named components first, so pointers name them,
 * and each other schema under its shortest pointer. A queue, not recursion: a graph of a thousand components
 * that refer to each other (Stripe's description) is walked in constant stack.
 */
export function forEachSchema(document: unknown, visit: SchemaVisitor): void {
  const seen = new WeakSet<object>();
  const queue: Array<[node: unknown, at: string, isSchema: boolean]> = [];
  const root = isObject(document) ? document : {};
  const components = isObject(root.components) ? root.components : {};
  const named = isObject(components.schemas) ? components.schemas : {};
  for (const [name, value] of Object.entries(named))
    queue.push([value, `#/components/schemas/${escapePointer(name)}`, true]);
  queue.push([root, '#', false]);
  for (let i = 0; i < queue.length; i++) {
    const [node, at, isSchema] = queue[i] as [unknown, string, boolean];
    queue[i] = [undefined, '', false]; // let what was walked go
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    if (isSchema && !isObject(node)) continue;
    seen.add(node);
    if (isSchema) visit(node as Json, at);
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${escapePointer(key)}`;
      if (!isSchema) {
        if (key === 'schema') queue.push([value, here, true]);
        else if (!DATA_KEYS.has(key) && !key.startsWith('x-')) queue.push([value, here, false]);
      } else if (Array.isArray(value) && SCHEMA_LIST.has(key))
        value.forEach((v, n) => queue.push([v, `${here}/${n}`, true]));
      else if (ONE_SCHEMA.has(key)) queue.push([value, here, true]);
      else if (SCHEMA_MAP.has(key) && isObject(value))
        for (const [name, v] of Object.entries(value))
          queue.push([v, `${here}/${escapePointer(name)}`, true]);
    }
  }
}
