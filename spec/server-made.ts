/**
 * Pure: an optional property of an item that its create does not take and whose name says the server makes it
 * (`number`, `url`, `html_url`, `full_name`, `created_at`, `updated`, a `state` enum): filled on a new record, as a server
 * would, where the document leaves it optional (go-swagger's documents require nothing). A time of an event
 * that may not have happened (`closed_at`, `deleted_at`, `merged_at`), an object or a list is never made up.
 */
import { kindOfName, wordsOf } from './field-kind';
import { typesOf, type Schema } from './schema-shape';

const MADE_TIMES = new Set(['created', 'updated', 'modified', 'creation']);
const COUNTERS = new Set(['number', 'uid', 'uuid', 'guid']);
const STATES = new Set(['state', 'status']);

export function serverMade(name: string, schema: Schema | undefined): boolean {
  const types = typesOf(schema);
  if (!types.some((t) => t === 'string' || t === 'integer')) return false;
  const words = wordsOf(name);
  const kind = kindOfName(name);
  if (kind === 'url' || namesWholeKey(name)) return true;
  if (kind === 'time') return words.some((w) => MADE_TIMES.has(w));
  if (words.length === 1 && COUNTERS.has(words[0] ?? '')) return true;
  const e = (schema as { enum?: unknown[] } | undefined)?.enum;
  return words.length === 1 && STATES.has(words[0] ?? '') && Array.isArray(e) && e.length > 0;
}

/** A field that spells a composite key whole (`full_name` of an `owner/name` repository): the record's own key. */
export function namesWholeKey(name: string): boolean {
  return wordsOf(name).join('') === 'fullname';
}
