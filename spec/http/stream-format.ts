/**
 * Pure: sequential media types (OpenAPI 3.2 §4.14.3.1) as bytes. `text/event-stream` (SSE), `application/jsonl`
 * and `application/x-ndjson` (one JSON value per line), `application/json-seq` (RFC 7464: each value after a
 * Record Separator). How a body splits into items and how items are written, side by side, so the mock that
 * writes a stream and the judges that read one cannot disagree. No schema is compiled here (spec/compile.ts
 * compiles the item schema this file finds; spec/http/streams.ts judges and generates items).
 */
import type { ValidateFunction } from 'ajv';
import type { Schema } from '../schema-shape';
import { objectShape, typesOf } from '../schema-shape';
import { isObject } from '../json';
import { exampleValue } from '../example-value';

export type StreamKind = 'sse' | 'jsonl' | 'json-seq';

/** A sequential media type documented with the schema of its items. */
export interface StreamShape {
  /** The media type as documented (`text/event-stream`). */
  mediaType: string;
  kind: StreamKind;
  /**
   * The schema of each item. For SSE, of the event (`data`, `event`, `id`, `retry`) with `data` decoded where it
   * carries JSON (see `data`).
   */
  itemSchema: Schema;
  /** SSE only: `json` when `data` is JSON text (a non-string schema, or `contentMediaType` JSON), else `text`. */
  data: 'json' | 'text';
  /** The document's example of the stream (a serialized body, a list of items or one item), when given. */
  example?: unknown;
  /** The item count the schema bounds (an array `schema`'s `minItems`/`maxItems`). */
  minItems?: number;
  maxItems?: number;
}

/** A stream shape with its item validator (compiled on first use). */
export interface StreamSpec extends StreamShape {
  validateItem: ValidateFunction;
}

/** One item read from a body, or why the bytes at that place are not one. */
export type ReadItem = { value: unknown } | { problem: string };

const base = (type: string): string => (type.split(';')[0] ?? '').trim().toLowerCase();

/** The last type asked about and its kind: the proxy asks for every answer, nearly always of one type. */
let lastType = '';
let lastKind: StreamKind | undefined;

/** The kind of a sequential media type, or undefined for any other type. */
export function streamKindOf(type: string): StreamKind | undefined {
  if (type !== lastType) {
    lastKind = kindOf(type);
    lastType = type;
  }
  return lastKind;
}

function kindOf(type: string): StreamKind | undefined {
  const t = base(type);
  if (t === 'text/event-stream') return 'sse';
  if (t === 'application/jsonl' || t === 'application/x-ndjson' || t === 'application/x-jsonlines')
    return 'jsonl';
  if (t === 'application/json-seq' || /^application\/[\w.-]+\+json-seq$/.test(t)) return 'json-seq';
  return undefined;
}

const SSE_FIELDS = ['data', 'event', 'id', 'retry'];
const isJsonType = (t: unknown): boolean =>
  typeof t === 'string' && /^application\/(json|[\w.+-]+\+json)$/i.test(base(t));

/**
 * SSE (§4.14.4): the event's `data` is a string after parsing. Where the item schema gives `data` a non-string
 * schema (an object, as many documents write it), or `contentMediaType: application/json` with a
 * `contentSchema`, `data` is JSON text: the item is judged and generated with `data` decoded. An item schema that
 * names no `data` (and not only SSE fields: `{id, title}` is a payload) is taken as the schema of the JSON in
 * `data` (a documented choice: documents written before 3.2 describe the payload).
 */
function sseItem(itemSchema: Schema): { itemSchema: Schema; data: 'json' | 'text' } {
  // Properties through `allOf` and object branches (the 3.2 example: the generic event, then a `oneOf`).
  const named = objectShape(itemSchema)?.properties ?? {};
  const names = Object.keys(named);
  const event = 'data' in named || names.every((n) => SSE_FIELDS.includes(n));
  if (!event)
    return {
      itemSchema: { type: 'object', required: ['data'], properties: { data: itemSchema } },
      data: 'json',
    };
  const data = named.data;
  if (!isObject(data)) return { itemSchema, data: 'text' };
  const own = isObject(itemSchema.properties) ? (itemSchema.properties as Record<string, Schema>) : {};
  const content = (data as Record<string, unknown>).contentSchema;
  // Only where `data` is the item's own property can its schema be swapped for the decoded one.
  if (
    own.data === data &&
    isJsonType((data as Record<string, unknown>).contentMediaType) &&
    isObject(content)
  )
    return {
      itemSchema: { ...itemSchema, properties: { ...own, data: content as Schema } } as Schema,
      data: 'json',
    };
  const types = typesOf(data);
  const structured =
    types.length > 0 ? !types.includes('string') : isObject(data.properties) || 'items' in data;
  return { itemSchema, data: structured ? 'json' : 'text' };
}

/**
 * The example of a media type: `example`, else the first of `examples` (its data, spec/example-value.ts), else
 * that example's `serializedValue`: the stream's text as sent.
 */
function exampleOf(media: Record<string, unknown>): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.values(isObject(media.examples) ? media.examples : {})[0];
  if (!isObject(first)) return undefined;
  return exampleValue(first) ?? first.serializedValue;
}

const count = (n: unknown): number | undefined => (typeof n === 'number' && n >= 0 ? n : undefined);

/**
 * The stream a Media Type Object documents: its `itemSchema` (3.2), else the `items` of an array `schema` (the
 * whole stream as an array, as §4.14.3.1 models it; a 3.1 document's way of writing a JSONL answer). Undefined
 * for a type that is not sequential, or a sequential one documented without either.
 */
export function streamShapeOf(mediaType: string, media: unknown): StreamShape | undefined {
  const kind = streamKindOf(mediaType);
  if (!kind || !isObject(media)) return undefined;
  const schema = media.schema as Schema | undefined;
  const whole = isObject(schema) && typesOf(schema).includes('array') && isObject(schema.items);
  const item = isObject(media.itemSchema)
    ? (media.itemSchema as Schema)
    : whole
      ? (schema.items as Schema)
      : undefined;
  if (!item) return undefined;
  const shape = kind === 'sse' ? sseItem(item) : { itemSchema: item, data: 'json' as const };
  return {
    mediaType,
    kind,
    ...shape,
    example: exampleOf(media),
    ...(whole ? { minItems: count(schema.minItems), maxItems: count(schema.maxItems) } : {}),
  };
}

/** The items of a body (every complete one, in order): JSON values, SSE events as `{ data, event, id, retry }`. */
export function readItems(kind: StreamKind, body: string): ReadItem[] {
  if (kind === 'sse') return readEvents(body).map((value) => ({ value }));
  const parts = kind === 'jsonl' ? body.split(/\r?\n/) : body.split('\x1e');
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return { value: JSON.parse(p) as unknown };
      } catch {
        return { problem: `not JSON (${JSON.stringify(p.slice(0, 40))})` };
      }
    });
}

/**
 * The events of an SSE body, parsed as the WHATWG HTML standard says (§9.2.6): lines end with CRLF, LF or CR;
 * `:` starts a comment; one space after the colon is dropped; `data` lines join with LF; `retry` only when
 * digits; an event without data is not dispatched; unknown fields are ignored; an event the body does not end
 * with a blank line is discarded.
 */
export function readEvents(body: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  let data: string[] = [];
  let event: Record<string, unknown> = {};
  for (const line of body
    .replace(/^\ufeff/, '')
    .split(/\r\n|\r|\n/)
    .slice(0, -1)) {
    if (line === '') {
      if (data.length > 0) events.push({ ...event, data: data.join('\n') });
      data = [];
      event = {};
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event.event = value;
    else if (field === 'id' && !value.includes('\0')) event.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
  }
  return events;
}

/** One SSE event's text: `event:`, `id:`, `retry:` lines where the item has them, each `data` line, a blank line. */
function writeEvent(item: unknown, data: 'json' | 'text'): string {
  const fields = isObject(item) ? item : { data: item };
  let out = '';
  for (const name of ['event', 'id']) {
    const v = fields[name];
    if ((typeof v === 'string' || typeof v === 'number') && !/[\r\n\0]/.test(String(v)))
      out += `${name}: ${String(v)}\n`;
  }
  if (Number.isInteger(fields.retry) && (fields.retry as number) >= 0)
    out += `retry: ${String(fields.retry)}\n`;
  const value = fields.data;
  const text = data === 'text' && typeof value === 'string' ? value : JSON.stringify(value ?? '');
  for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** Each item as the bytes of its media type, one string per item (the mock writes them as they come). */
export function writeItems(shape: Pick<StreamShape, 'kind' | 'data'>, items: readonly unknown[]): string[] {
  if (shape.kind === 'sse') return items.map((item) => writeEvent(item, shape.data));
  const prefix = shape.kind === 'json-seq' ? '\x1e' : '';
  return items.map((item) => `${prefix}${JSON.stringify(item ?? null)}\n`);
}

/**
 * The part of a stream cut off mid-way (a reader that stopped waiting) that holds only whole items: up to the
 * last blank line for SSE, the last line end for JSON Lines, the last record separator for JSON sequences.
 */
export function wholeItems(kind: StreamKind, text: string): string {
  if (kind === 'sse') {
    // An event ends with an empty line: two line ends in a row (CRLF, LF or CR).
    const ends = [...text.matchAll(/(\r\n|\r|\n)(\r\n|\r|\n)/g)];
    const last = ends[ends.length - 1];
    return last ? text.slice(0, (last.index ?? 0) + last[0].length) : '';
  }
  if (kind === 'jsonl') return text.slice(0, text.lastIndexOf('\n') + 1);
  const last = text.lastIndexOf('\x1e');
  return last < 0 ? '' : text.slice(0, last);
}

/** SSE items with `data` decoded where it carries JSON; other kinds as they are. */
export function decodeItem(shape: Pick<StreamShape, 'kind' | 'data'>, value: unknown): ReadItem {
  if (shape.kind !== 'sse' || shape.data === 'text' || !isObject(value)) return { value };
  try {
    return { value: { ...value, data: JSON.parse(String(value.data)) as unknown } };
  } catch {
    return { problem: `data is not JSON (${JSON.stringify(String(value.data).slice(0, 40))})` };
  }
}
