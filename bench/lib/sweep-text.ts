/**
 * The sweep's second reader of text answers of object or array schemas (issue 40): Prism reads every body that
 * is not JSON as a string, so an object schema under `text/plain`, a vendor type or CSV is "must be object"
 * whatever the text. This judge reads the text as a client of that type would, on its own: CSV by RFC 4180
 * (a header row, then one row per item; the schema's required properties must be columns), anything else as
 * JSON text, judged by the schema as spec/schema-fits.ts reads it.
 */
import { fits } from '../../spec/schema-fits';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of CSV text, row by row (quoted fields, doubled quotes, CRLF or LF). */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** The required properties of an object schema, or of an array's items. */
function requiredOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const own = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const parts = Array.isArray(schema.allOf) ? schema.allOf.flatMap(requiredOf) : [];
  return [...own, ...parts, ...(schema.type === 'array' ? requiredOf(schema.items) : [])];
}

/** What the second reader finds wrong with a text answer of `base` and `schema`; empty when it reads right. */
export function textJudge(body: string, base: string, schema: unknown): string[] {
  if (/csv/.test(base)) {
    const [header = [], ...rows] = csvRows(body);
    const missing = requiredOf(schema).filter((name) => !header.includes(name));
    if (missing.length) return [`text reader: CSV header lacks ${missing.join(', ')}`];
    if (rows.some((r) => r.length !== header.length)) return ['text reader: a CSV row of another width'];
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch {
    return ['text reader: the body is neither JSON text nor CSV'];
  }
  return fits(value, schema) ? [] : ['text reader: the JSON text does not fit the schema'];
}
