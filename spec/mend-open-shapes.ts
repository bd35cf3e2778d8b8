/**
 * Pure: shapes that published documents carry, that the OpenAPI (or Swagger 2.0) schema refuses, but that Prism
 * and every code generator read one way only. They are mended in the bundled document before the structure check,
 * and each class is said once at start (`warning:` lines), as docs/public-documents.md promises: a shape the
 * document leaves open is settled, never refused. Springfox, the Java generator behind many Swagger 2.0
 * documents (EMB's ncs among them), writes both.
 */
import { isObject } from './json';
import { escapePointer } from './schema-walk';
import { PATH_ITEM_METHODS } from './methods';

type Json = Record<string, unknown>;

/** What Swagger 2.0 allows beside `$ref` in a Schema Object (the rest of an object holding a `$ref` is refused). */
const SWAGGER2_SCHEMA_KEYS = new Set([
  ...['$ref', 'format', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum'],
  ...['minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems'],
  ...['uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'additionalProperties', 'type'],
  ...['items', 'allOf', 'properties', 'discriminator', 'readOnly', 'xml', 'externalDocs', 'example'],
]);

/** Values that are data, not document structure: a `$ref` key in an example is an example's key. */
const DATA_KEYS = new Set(['example', 'examples', 'value', 'default', 'enum', 'const', 'x-examples']);

/** Mend `document` in place (bundled: only internal `$ref`s, not yet upgraded); returns one line per class mended. */
export function mendOpenShapes(document: Json): string[] {
  const notes: string[] = [];
  const paths = mendPathParameters(document);
  // OpenAPI 3.0 and 3.1 say `required: true` for a path parameter, and Swagger 2.0 too: a path without the value
  // matches no template, so `false` (or nothing) can only mean what `true` says.
  if (paths.length > 0)
    notes.push(
      `path parameters not marked required: ${paths.length} read as required, as a path cannot match without them${where(paths)}`,
    );
  const flags = mendRequiredFlags(document);
  // JSON Schema draft 3 (and many a hand-written document) marks a property `required: true` on the property;
  // every later draft, and OpenAPI, lists it in its object's `required`. What the author meant is not in doubt.
  if (flags.length > 0)
    notes.push(
      `properties marked required: true on themselves: ${flags.length} moved into their object's required list${where(flags)}`,
    );
  if (document.swagger === '2.0') {
    const siblings = mendRefSiblings(document);
    // JSON Reference (which Swagger 2.0 uses) ignores what stands beside a `$ref`; springfox writes `originalRef`
    // there, which the 2.0 schema refuses. Left out, as a reader of 2.0 ignores it.
    if (siblings.length > 0) {
      const keys = [...new Set(siblings.map((s) => s.key))].join(', ');
      notes.push(
        `keys beside $ref that Swagger 2.0 ignores: ${siblings.length} left out (${keys})${where(siblings.map((s) => s.at))}`,
      );
    }
  }
  return notes;
}

const where = (pointers: readonly string[]): string =>
  ` (at ${pointers.slice(0, 3).join(', ')}${pointers.length > 3 ? ', …' : ''})`;

/** Every path parameter, on path items, operations and among the reusable ones, made required; their pointers. */
function mendPathParameters(document: Json): string[] {
  const lists: Array<[at: string, list: unknown]> = [];
  for (const [template, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    const at = `#/paths/${escapePointer(template)}`;
    lists.push([`${at}/parameters`, item.parameters]);
    for (const method of PATH_ITEM_METHODS)
      if (isObject(item[method])) lists.push([`${at}/${method}/parameters`, item[method].parameters]);
  }
  const mended: string[] = [];
  for (const [at, list] of lists)
    if (Array.isArray(list)) list.forEach((p, n) => mendOne(p, `${at}/${n}`, mended));
  const components = isObject(document.components) ? document.components.parameters : undefined;
  const reusable = document.swagger === '2.0' ? document.parameters : components;
  const base = document.swagger === '2.0' ? '#/parameters' : '#/components/parameters';
  for (const [name, p] of Object.entries(isObject(reusable) ? reusable : {}))
    mendOne(p, `${base}/${escapePointer(name)}`, mended);
  return mended;
}

function mendOne(parameter: unknown, at: string, mended: string[]): void {
  if (!isObject(parameter) || parameter.in !== 'path' || parameter.required === true) return;
  parameter.required = true;
  mended.push(at);
}

/** Each property's boolean `required` moved into its object's `required` list (a `false` dropped); their pointers. */
function mendRequiredFlags(document: Json): string[] {
  const moved: string[] = [];
  walkStructure(document, (node, at) => {
    if (!isObject(node.properties)) return;
    for (const [name, property] of Object.entries(node.properties)) {
      if (!isObject(property) || typeof property.required !== 'boolean') continue;
      const wanted = property.required;
      delete property.required;
      moved.push(`${at}/properties/${escapePointer(name)}`);
      if (!wanted) continue;
      const list = Array.isArray(node.required) ? (node.required as unknown[]) : [];
      if (!list.includes(name)) node.required = [...list, name];
    }
  });
  return moved;
}

/** Every object of the document outside data (examples, defaults, enums, vendor keys), with its pointer. */
function walkStructure(document: Json, visit: (node: Json, at: string) => void): void {
  const stack: Array<[at: string, node: unknown]> = [['#', document]];
  while (stack.length > 0) {
    const [at, node] = stack.pop() as [string, unknown];
    if (typeof node !== 'object' || node === null) continue;
    if (isObject(node)) visit(node, at);
    for (const [key, value] of Object.entries(node))
      if (!DATA_KEYS.has(key) && !key.startsWith('x-')) stack.push([`${at}/${escapePointer(key)}`, value]);
  }
}

/** Keys no Swagger 2.0 Schema Object has, beside a `$ref`, removed everywhere but in data; where and which. */
function mendRefSiblings(document: Json): Array<{ at: string; key: string }> {
  const removed: Array<{ at: string; key: string }> = [];
  walkStructure(document, (node, at) => {
    if (typeof node.$ref !== 'string') return;
    for (const key of Object.keys(node))
      if (!SWAGGER2_SCHEMA_KEYS.has(key) && !key.startsWith('x-')) {
        delete node[key];
        removed.push({ at, key });
      }
  });
  return removed.reverse();
}
