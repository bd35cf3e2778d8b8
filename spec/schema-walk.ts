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

/** Call `visit` for each schema in `document`: the named components first, so pointers name them. */
export function forEachSchema(document: unknown, visit: SchemaVisitor): void {
  const seen = new WeakSet<object>();
  const schema = (node: unknown, at: string): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    visit(node, at);
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${escapePointer(key)}`;
      if (Array.isArray(value) && SCHEMA_LIST.has(key)) value.forEach((v, i) => schema(v, `${here}/${i}`));
      else if (ONE_SCHEMA.has(key)) schema(value, here);
      else if (SCHEMA_MAP.has(key) && isObject(value))
        for (const [name, v] of Object.entries(value)) schema(v, `${here}/${escapePointer(name)}`);
    }
  };
  const outside = (node: unknown, at: string): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${escapePointer(key)}`;
      if (key === 'schema') schema(value, here);
      else if (!DATA_KEYS.has(key) && !key.startsWith('x-')) outside(value, here);
    }
  };
  const root = isObject(document) ? document : {};
  const components = isObject(root.components) ? root.components : {};
  const named = isObject(components.schemas) ? components.schemas : {};
  for (const [name, value] of Object.entries(named))
    schema(value, `#/components/schemas/${escapePointer(name)}`);
  outside(root, '#');
}
