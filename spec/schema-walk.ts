/**
 * Pure: visit every Schema Object of an OpenAPI document, once each, with the JSON pointer where it is first
 * found. Works on a dereferenced document (shared and circular schemas) as on one with `$ref`s left in.
 */
import { isObject } from './json';
import { ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './schema-keywords';

type Json = Record<string, unknown>;
/** Called once per schema; `pointer()` is where it was first found (`#/components/schemas/Pet`). */
export type SchemaVisitor = (schema: Json, pointer: () => string) => void;

/** Keys of the document (outside schemas) whose values are examples or vendor data: never walked. */
const DATA_KEYS = new Set(['example', 'examples', 'value', 'default', 'enum', 'const']);

/** One JSON pointer segment: `~` and `/` escaped as RFC 6901 says. */
export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A child of a node on the walk: its pointer segment(s), its value, and whether it is a Schema Object. */
type Child = [segment: string, value: unknown, isSchema: boolean];

function childrenOf(node: object, isSchema: boolean): Child[] {
  const out: Child[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (typeof value !== 'object' || value === null) continue;
    const seg = escapePointer(key);
    if (!isSchema) {
      if (key === 'schema') out.push([seg, value, true]);
      else if (!DATA_KEYS.has(key) && !key.startsWith('x-')) out.push([seg, value, false]);
    } else if (Array.isArray(value) && SCHEMA_LIST.has(key))
      value.forEach((v, n) => out.push([`${seg}/${n}`, v, true]));
    else if (ONE_SCHEMA.has(key)) out.push([seg, value, true]);
    else if (SCHEMA_MAP.has(key) && isObject(value))
      for (const [name, v] of Object.entries(value)) out.push([`${seg}/${escapePointer(name)}`, v, true]);
  }
  return out;
}

/**
 * Call `visit` for each schema in `document`, once each: the named components first, so pointers name them, then
 * every other one where it is first found. `pointer()` builds its JSON pointer when asked (most visitors never
 * ask). Depth first with a stack of its own, not recursion: a graph of a thousand components that refer to each
 * other (Stripe's description) is walked in constant stack, and what the walk holds is one path, not the document.
 */
export function forEachSchema(document: unknown, visit: SchemaVisitor): void {
  const seen = new WeakSet<object>();
  const root = isObject(document) ? document : {};
  const components = isObject(root.components) ? root.components : {};
  const named = isObject(components.schemas) ? components.schemas : {};
  const starts: Array<[pointer: string, node: object, isSchema: boolean]> = [];
  for (const [name, value] of Object.entries(named)) {
    if (!isObject(value) || seen.has(value)) continue;
    const at = `#/components/schemas/${escapePointer(name)}`;
    seen.add(value);
    visit(value, () => at);
    starts.push([at, value, true]);
  }
  seen.add(root);
  starts.push(['#', root, false]);
  for (const [base, start, startIsSchema] of starts) {
    const path: Array<{ segment: string; children: Child[]; next: number }> = [
      { segment: base, children: childrenOf(start, startIsSchema), next: 0 },
    ];
    const pointer = (): string => path.map((f) => f.segment).join('/');
    while (path.length > 0) {
      const frame = path[path.length - 1] as (typeof path)[number];
      const child = frame.children[frame.next++];
      if (child === undefined) {
        path.pop();
        continue;
      }
      const [segment, value, isSchema] = child;
      if (typeof value !== 'object' || value === null || seen.has(value)) continue;
      if (isSchema && !isObject(value)) continue;
      seen.add(value);
      path.push({ segment, children: [], next: 0 });
      if (isSchema) visit(value as Json, pointer);
      (path[path.length - 1] as (typeof path)[number]).children = childrenOf(value, isSchema);
    }
  }
}
