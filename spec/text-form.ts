/**
 * Pure: an object or array value written under a text media type that is neither JSON nor XML (issue 40):
 * `text/plain`, a vendor type (`application/vnd.wupdater.apiversion`), `application/csv`. The document gives an
 * object schema there, so a client reads the text as that object: CSV as a header row of the properties and one
 * row per item, anything else as JSON text. No answer of such a type satisfies Prism's validator, which reads
 * every body that is not JSON as a string and checks the string against the object schema (checked by hand
 * with Prism 5.14.2's proxy: `must be object` whatever the text); the sweep counts those answers apart.
 */
import { isObject } from './json';

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values']);

/** Is `base` (lower-case, no parameters) a CSV type? */
export const isCsv = (base: string): boolean => CSV_TYPES.has(base);

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180 §2). */
function field(value: unknown): string {
  const text =
    value === undefined || value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value as string | number | boolean);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of objects as CSV: a header of every property any row has, in first-seen order. */
function csvOf(rows: Record<string, unknown>[]): string {
  const columns: string[] = [];
  for (const row of rows)
    for (const name of Object.keys(row)) if (!columns.includes(name)) columns.push(name);
  const lines = [columns.map(field).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `value` (an object or an array) as the text of `base`; undefined for other values. */
export function structuredText(base: string, value: unknown): string | undefined {
  if (!isObject(value) && !Array.isArray(value)) return undefined;
  if (isCsv(base)) {
    const rows = Array.isArray(value) ? value : [value];
    if (rows.every(isObject)) return csvOf(rows);
  }
  return JSON.stringify(value);
}
