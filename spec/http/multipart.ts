/**
 * Pure: a `multipart/form-data` body (RFC 7578) decoded into the object its schema describes, for the mock: the
 * text parts are the form's fields, read as a form body is (spec/http/form-decode.ts: bracketed names nest,
 * values typed by the schema); a file part's value is its file name, and its name, size and type are kept
 * apart (`UploadedFile`) so that the record can say what was uploaded (OpenAI's `filename` and `bytes`).
 * Bounded: the body's size (the caller's limit), the number of parts and the size of a part's headers; past
 * them, or where the body does not follow its boundary, a problem (a 400). Works on bytes: no Buffer.
 */
import { decodeForm, FORM_LIMITS, type FormEncoding, type FormRead } from './form-decode';
import type { Schema } from '../schema-shape';

/** What a file part carried: the field's name, the file's name as sent, its size in bytes and its type. */
export interface UploadedFile {
  field: string;
  filename: string;
  size: number;
  contentType?: string;
}

export type MultipartRead =
  { ok: true; value: Record<string, unknown>; files: UploadedFile[] } | { ok: false; message: string };

export const MULTIPART_LIMITS = { maxParts: 100, maxHeaderBytes: 8192 };

const text = new TextDecoder('utf-8');
const strict = new TextDecoder('utf-8', { fatal: true });
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const CRLF2 = ascii('\r\n\r\n');

/** The first index of `needle` in `hay` at or after `from`; -1 when absent. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  outer: for (
    let i = hay.indexOf(first ?? 0, from);
    i !== -1 && i <= last;
    i = hay.indexOf(first ?? 0, i + 1)
  ) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Pure: the boundary of a `multipart/form-data` Content-Type, or undefined (RFC 2046 §5.1.1: 1 to 70 chars). */
export function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/** A header parameter (`name="file"`, `filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`), unquoted and decoded. */
function param(header: string, name: string): string | undefined {
  const extended = new RegExp(`;\\s*${name}\\*=(?:utf-8|UTF-8)''([^;\\s]*)`).exec(header);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // not percent-encoded as it says: the plain parameter, if any, is read instead
    }
  }
  const m = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(header);
  return m ? (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]) : undefined;
}

interface Part {
  headers: string;
  data: Uint8Array;
}

/** The parts between the boundaries, or why the body does not follow them. */
function partsOf(body: Uint8Array, boundary: string): Part[] | string {
  const delimiter = ascii(`--${boundary}`);
  const next = ascii(`\r\n--${boundary}`);
  let at = indexOf(body, delimiter, 0);
  if (at === -1) return 'the body holds no part of its boundary';
  const parts: Part[] = [];
  for (;;) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // `--`: the closing delimiter
    if (parts.length >= MULTIPART_LIMITS.maxParts) return `more than ${MULTIPART_LIMITS.maxParts} parts`;
    const headersEnd = indexOf(body, CRLF2, at);
    if (headersEnd === -1 || headersEnd - at > MULTIPART_LIMITS.maxHeaderBytes)
      return `part ${parts.length + 1} has no end of its headers within ${MULTIPART_LIMITS.maxHeaderBytes} bytes`;
    const end = indexOf(body, next, headersEnd + 4);
    if (end === -1) return 'the body ends before its closing boundary';
    parts.push({
      headers: text.decode(body.subarray(at, headersEnd)),
      data: body.subarray(headersEnd + 4, end),
    });
    at = end + 2;
  }
}

/** A header's value from a part's header block, by its lower-case name. */
const headerOf = (block: string, name: string): string | undefined =>
  block
    .split(/\r\n/)
    .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
    .find((m) => m?.[1]?.trim().toLowerCase() === name)?.[2];

/** Pure: a multipart body decoded into its schema's object and the files it carried, or the problem with it. */
export function decodeMultipart(
  body: Uint8Array,
  contentType: string,
  schema: Schema | undefined,
  encoding?: Readonly<Record<string, FormEncoding>>,
): MultipartRead {
  const boundary = boundaryOf(contentType);
  if (!boundary) return { ok: false, message: 'multipart/form-data needs a boundary parameter' };
  const parts = partsOf(body, boundary);
  if (typeof parts === 'string') return { ok: false, message: `multipart body: ${parts}` };
  const pairs: string[] = [];
  const files: UploadedFile[] = [];
  // A text part that says it is JSON is read as JSON, as the `encoding` map's contentType would make it.
  const encodings: Record<string, FormEncoding> = { ...encoding };
  for (const [i, part] of parts.entries()) {
    const disposition = headerOf(part.headers, 'content-disposition') ?? '';
    const field = param(disposition, 'name');
    if (!/^form-data\b/i.test(disposition.trim()) || field === undefined)
      return {
        ok: false,
        message: `multipart body: part ${i + 1} has no Content-Disposition: form-data name`,
      };
    const filename = param(disposition, 'filename');
    let value: string;
    if (filename !== undefined) {
      const type = headerOf(part.headers, 'content-type')?.trim();
      files.push({ field, filename, size: part.data.length, ...(type ? { contentType: type } : {}) });
      value = filename;
    } else {
      if (/^application\/([\w.-]+\+)?json\b/i.test(headerOf(part.headers, 'content-type')?.trim() ?? ''))
        encodings[field] = { ...encodings[field], contentType: 'application/json' };
      try {
        value = strict.decode(part.data);
      } catch {
        return { ok: false, message: `multipart body: the field ${field.slice(0, 100)} is not UTF-8 text` };
      }
    }
    pairs.push(`${encodeURIComponent(field)}=${encodeURIComponent(value)}`);
  }
  // The body's size is the caller's bound; percent-encoding the fields again must not count against it.
  const limits = { ...FORM_LIMITS, maxBytes: Number.MAX_SAFE_INTEGER };
  const form: FormRead = decodeForm(pairs.join('&'), schema, encodings, limits);
  return form.ok ? { ok: true, value: form.value, files } : form;
}
