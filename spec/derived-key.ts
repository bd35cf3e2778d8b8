/**
 * Pure: a key the document says is made from another field of the item. Mailchimp's member `id` (and its path's
 * `{subscriber_hash}`) is "The MD5 hash of the lowercase version of the list member's email address": a client
 * computes it from the address it sent and reads the member there, so a mock that invents the key breaks it.
 * Read from the key's own description (or the item path parameter's): an MD5 hash of a field the words name,
 * lower-cased when the description says so. Only MD5 is read; any other key is drawn as before.
 */
import { wordsOf } from './resource-key';
import { md5Hex } from './md5';
import type { DerivedKey } from './resource-types';
import { objectShape, typesOf, type Schema } from './schema-shape';

export type { DerivedKey } from './resource-types';

const SAID = /\bMD5 hash of (?:the )?(lower-?cased?\s+(?:version\s+of\s+(?:the\s+)?)?)?([^.]{1,120})/i;

/**
 * The derivation the description of a key's schema (or its path parameter's) states, or undefined; `key` is the
 * key field itself (never its own source).
 */
export function derivedKeyOf(
  item: Schema,
  key: string,
  described: readonly (Schema | undefined)[],
): DerivedKey | undefined {
  const shape = objectShape(item);
  if (!shape) return undefined;
  for (const schema of described) {
    const text = (schema as { description?: unknown } | undefined)?.description;
    const said = typeof text === 'string' ? SAID.exec(text) : null;
    if (!said) continue;
    const words = ` ${(said[2] ?? '').toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
    // The string field whose words the text spells, the longest when several do (`email_address` over `email`).
    const from = Object.keys(shape.properties)
      .filter((p) => p !== key && typesOf(shape.properties[p]).includes('string'))
      .filter((p) => words.includes(` ${wordsOf(p).join(' ')} `))
      .sort((a, b) => wordsOf(b).length - wordsOf(a).length)[0];
    if (from) return { from, hash: 'md5', lowerCase: said[1] !== undefined };
  }
  return undefined;
}

/** The key made from a record's source field, or undefined when the record has no such string. */
export function deriveKey(d: DerivedKey, record: Record<string, unknown>): string | undefined {
  const v = record[d.from];
  if (typeof v !== 'string') return undefined;
  return md5Hex(d.lowerCase ? v.toLowerCase() : v);
}
