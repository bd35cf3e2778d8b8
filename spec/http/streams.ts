/**
 * Streams of items (OpenAPI 3.2 `itemSchema`, issue 33): one reader for the runner, the proxy and `--judge-har`
 * (a body split by its media type, each item judged against the item schema, a failure naming the item), and
 * the mock's items (examples, else generated, each repaired like any answer). The bytes are
 * ./stream-format.ts's.
 */
import { formatAjvErrors } from '../compile';
import { validAnswer } from '../conform';
import { decodeItem, readItems, writeItems, type StreamSpec } from './stream-format';
import { variantItem } from './stream-variants';

/** The default number of items the mock streams, and the most it ever will (a caller cannot grow a stream). */
export const DEFAULT_STREAM_ITEMS = 3;
export const MAX_STREAM_ITEMS = 100;

const base = (type: string | undefined): string => (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** The documented stream a response of `contentType` is: one of the response's stream types, exactly. */
export function streamFor(
  streams: readonly StreamSpec[] | undefined,
  contentType: string | undefined,
): StreamSpec | undefined {
  // Most responses document no stream: the answer's type is not even read.
  if (!streams?.length) return undefined;
  const got = base(contentType);
  return got ? streams.find((s) => base(s.mediaType) === got) : undefined;
}

/**
 * Pure: undefined when every item of `body` is valid against the item schema, else the first problem, naming the
 * item (`item 2 of 3: /data/name must be string`, counted from 1), and how many more items fail.
 */
export function streamProblem(stream: StreamSpec, body: string): string | undefined {
  const read = readItems(stream.kind, body);
  const problems: string[] = [];
  read.forEach((item, i) => {
    const decoded = 'problem' in item ? item : decodeItem(stream, item.value);
    const problem =
      'problem' in decoded
        ? decoded.problem
        : stream.validateItem(decoded.value)
          ? undefined
          : formatAjvErrors(stream.validateItem.errors, 'item');
    if (problem) problems.push(`item ${i + 1} of ${read.length}: ${problem}`);
  });
  if (problems.length === 0) return undefined;
  const more = problems.length - 1;
  return `${stream.mediaType} ${problems[0] as string}${more > 0 ? ` (and ${more} more item${more > 1 ? 's' : ''})` : ''}`;
}

/** The example's items: a serialized body read by its media type, a list, or one item. */
function exampleItems(stream: StreamSpec): unknown[] | undefined {
  const example = stream.example;
  if (example === undefined) return undefined;
  if (typeof example === 'string') {
    // A serialized body as the document writes it (a YAML block may end with a single newline).
    const items = readItems(stream.kind, example.endsWith('\n\n') ? example : `${example}\n\n`)
      .map((item) => ('problem' in item ? item : decodeItem(stream, item.value)))
      .flatMap((item) => ('value' in item ? [item.value] : []));
    return items.length > 0 ? items : undefined;
  }
  if (Array.isArray(example)) return example;
  return [example];
}

/** How many items to generate: `wanted` within the array schema's bounds, at most MAX_STREAM_ITEMS. */
export function itemCount(stream: Pick<StreamSpec, 'minItems' | 'maxItems'>, wanted: number): number {
  let n = Math.max(0, Math.floor(wanted));
  if (stream.minItems !== undefined) n = Math.max(n, stream.minItems);
  if (stream.maxItems !== undefined) n = Math.min(n, stream.maxItems);
  return Math.min(n, MAX_STREAM_ITEMS);
}

/**
 * The items the mock streams: the document's example (its items, as many as it has, up to the cap), else `count`
 * items generated from the item schema (each another variant), every one repaired to fit the item schema
 * (spec/conform.ts) and checked with its validator.
 */
export function streamItems(stream: StreamSpec, count: number): unknown[] {
  const given = exampleItems(stream)?.slice(0, MAX_STREAM_ITEMS);
  const raw =
    given ??
    Array.from({ length: itemCount(stream, count) }, (_, i) =>
      variantItem(stream.itemSchema, stream.validateItem, i, stream.kind === 'sse'),
    );
  return raw.map((item) => validAnswer(item, stream.itemSchema, stream.validateItem));
}

/** The body of a stream of `count` items, one string per item (see streamItems). */
export function streamChunks(stream: StreamSpec, count: number): string[] {
  return writeItems(stream, streamItems(stream, count));
}
