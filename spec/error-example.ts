/**
 * The error body a document shows only in words: no response documents an error schema, but its description
 * has a section on errors with a fenced JSON example (Hetzner Cloud's `{"error": {"code": "invalid_input",
 * "message": "…"}}`). That example is the document's own error shape, so the mock's errors take it rather than
 * a shape of its own; a schema is read off the example (the fields the example has, none required), and the
 * example's values give the form of the codes. Read once at start, bounded; pure.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Schema } from './schema-shape';

/** The description's first part looked at, the fenced blocks read, and the size of one block. */
const DESCRIPTION_MAX = 256 * 1024;
const BLOCKS_MAX = 64;
const BLOCK_MAX = 16 * 1024;
const TEXT = /^(message|detail|error_description|title|description|msg|reason)$/i;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Does this value carry an error's text: at its top, in an `error` object, or in the first of a list? */
function looksLikeError(v: unknown, depth = 0): boolean {
  if (!isObject(v) || depth > 2) return false;
  if (Object.keys(v).some((k) => TEXT.test(k) && typeof v[k] === 'string')) return true;
  return Object.entries(v).some(
    ([k, inner]) =>
      /^errors?$/i.test(k) &&
      looksLikeError(Array.isArray(inner) ? (inner as unknown[])[0] : inner, depth + 1),
  );
}

/** A schema that the example fits: its types, its properties (none required), the first item of a list. */
function schemaOfExample(v: unknown, depth = 0): Schema {
  if (depth > 6) return {};
  if (typeof v === 'string') return { type: 'string' };
  if (typeof v === 'boolean') return { type: 'boolean' };
  if (typeof v === 'number') return { type: Number.isInteger(v) ? 'integer' : 'number' };
  if (Array.isArray(v))
    return { type: 'array', items: v.length ? schemaOfExample(v[0], depth + 1) : {} } as Schema;
  if (!isObject(v)) return {};
  const properties: Record<string, Schema> = {};
  for (const [k, inner] of Object.entries(v)) properties[k] = schemaOfExample(inner, depth + 1);
  return { type: 'object', properties };
}

/** The fenced code blocks of a Markdown text, each up to BLOCK_MAX characters, at most BLOCKS_MAX of them. */
function fencedBlocks(text: string): string[] {
  const out: string[] = [];
  const fence = /^ {0,3}(```|~~~)[^\n]*\n([\s\S]*?)^ {0,3}\1[ \t]*$/gm;
  for (let m = fence.exec(text); m && out.length < BLOCKS_MAX; m = fence.exec(text))
    if ((m[2] ?? '').length <= BLOCK_MAX) out.push(m[2] ?? '');
  return out;
}

/** Pure: the error example the document's description shows, and the schema read off it; undefined if none. */
export function describedError(
  document: OpenAPIV3_1.Document,
): { schema: Schema; example: unknown } | undefined {
  const text = document.info?.description;
  if (typeof text !== 'string' || !/error/i.test(text)) return undefined;
  for (const block of fencedBlocks(text.slice(0, DESCRIPTION_MAX))) {
    let value: unknown;
    try {
      value = JSON.parse(block) as unknown;
    } catch {
      continue;
    }
    if (looksLikeError(value)) return { schema: schemaOfExample(value), example: value };
  }
  return undefined;
}
