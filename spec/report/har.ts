/**
 * Exchanges -> HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format browser devtools import and
 * replay tools read. Pure: the exchanges are already masked by the client (keys, tokens, passwords, cookies).
 */
import { commandName } from '../paths';
import type { Exchange } from './types';

interface HarHeader {
  name: string;
  value: string;
}

/** The parts of HAR 1.2 the runner writes (every field the format requires). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarHeader[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarHeader[];
    headers: HarHeader[];
    /** `_truncated` (HAR's custom-field convention) and `comment`: the body is not recorded whole. */
    content: { size: number; mimeType: string; text: string; comment?: string; _truncated?: boolean };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[] };
}

const headerList = (headers: Record<string, string>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams.entries()].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const mimeOf = (headers: Record<string, string>): string =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';

/** The comment of a body not recorded whole (`--judge-har` reads it: such a body is not judged). */
export const TRUNCATED = 'truncated: the body was over --max-body-bytes and is not recorded whole';

/** One HAR entry per exchange; an exchange without a response gets status 0 and its error as a comment. */
function entryOf(e: Exchange): HarEntry {
  const sent = e.sentAt ?? e.receivedAt;
  const res = e.response;
  const text = e.responseText ?? res?.body ?? '';
  const wait = Math.max(0, e.receivedAt - sent);
  return {
    startedDateTime: new Date(sent).toISOString(),
    time: wait,
    request: {
      method: e.request.method,
      url: e.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(e.request.headers),
      queryString: queryOf(e.request.url),
      ...(e.request.body !== undefined
        ? { postData: { mimeType: mimeOf(e.request.headers), text: e.request.body } }
        : {}),
      headersSize: -1,
      bodySize: e.request.body === undefined ? 0 : Buffer.byteLength(e.request.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(res?.headers ?? {}),
      content: {
        size: Buffer.byteLength(text),
        mimeType: mimeOf(res?.headers ?? {}),
        text,
        ...(e.truncated ? { comment: TRUNCATED, _truncated: true } : {}),
      },
      redirectURL: res?.headers.location ?? '',
      headersSize: -1,
      bodySize: res ? Buffer.byteLength(text) : -1,
      ...(e.error ? { comment: e.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait, receive: 0 },
    ...(e.operationId ? { comment: e.operationId } : {}),
  };
}

/** The HAR document of a run. */
export function toHar(exchanges: readonly Exchange[], version: string): Har {
  if (!Array.isArray(exchanges))
    throw new TypeError('toHar: exchanges must be the array runConformanceDetailed returned as `exchanges`');
  if (typeof version !== 'string' || version === '')
    throw new TypeError(
      'toHar: version must be a non-empty string (the version recorded as the HAR creator)',
    );
  return {
    log: {
      version: '1.2',
      creator: { name: commandName('conformance'), version },
      entries: exchanges.map(entryOf),
    },
  };
}

/** `JSON.stringify({log: {entries: [entry]}}, null, 2)` is these around the entry indented as in a HAR file. */
const NESTED_HEAD = '{\n  "log": {\n    "entries": [\n      ';
const NESTED_TAIL = '\n    ]\n  }\n}';

/**
 * The HAR document written as the exchanges arrive: `add` each, `end` once; `write` receives the text in pieces
 * that join into exactly `JSON.stringify(toHar(exchanges, version), null, 2)`. Nothing is kept between calls but
 * a count, so a run of any length records in constant memory.
 */
export function harWriter(
  version: string,
  write: (text: string) => void,
): {
  add(exchange: Exchange): void;
  /** Closes the document; returns the number of entries written. */
  end(): number;
} {
  const empty = JSON.stringify(toHar([], version), null, 2);
  const at = empty.indexOf('[]');
  const head = empty.slice(0, at + 1);
  const tail = empty.slice(at + 1);
  let count = 0;
  let ended = false;
  write(head);
  return {
    add(exchange) {
      if (ended) throw new Error('harWriter: add after end');
      // Stringified in place (three levels deep, as in the document) rather than indented after: no second copy
      // of each entry's text is built (issue 39, docs/large-documents.md#the-runners-memory).
      const nested = JSON.stringify({ log: { entries: [entryOf(exchange)] } }, null, 2);
      const entry = nested.slice(NESTED_HEAD.length, nested.length - NESTED_TAIL.length);
      write(count === 0 ? '\n      ' : ',\n      ');
      write(entry);
      count += 1;
    },
    end() {
      if (!ended) write(count === 0 ? tail : `\n    ${tail}`);
      ended = true;
      return count;
    },
  };
}
