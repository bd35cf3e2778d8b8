/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11): `RateLimit-Policy` and `RateLimit`, both
 * RFC 9651 structured field Lists, parsed with the `structured-headers` package. Pure: strings in, values out.
 */
import { parseList, Token, type Item } from 'structured-headers';

/** One policy: `"minute";q=60;w=60`. */
export interface RateLimitPolicy {
  name: string;
  q: number;
  w?: number;
}

/** One limit: `"minute";r=59;t=42`. */
export interface RateLimitItem {
  name: string;
  r: number;
  t?: number;
}

export type Parsed<T> = { ok: true; items: T[] } | { ok: false; problem: string };

type Params = Map<string, unknown>;

const nonNegativeInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The item's name (a String, or a Token as some servers send it), or an error. */
function nameOf(item: Item | unknown): string | undefined {
  const value = Array.isArray(item) ? item[0] : undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Token) return value.toString();
  return undefined;
}

const SP = 32;
const HTAB = 9;
/** RFC 9651 key characters: lcalpha and `*` first, then digits, `_`, `-`, `.` too. */
const keyStart = (c: number): boolean => (c >= 97 && c <= 122) || c === 42;
const keyChar = (c: number): boolean =>
  keyStart(c) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46;

/**
 * A List in the common form every server sends (Strings without escapes, each with non-negative Integer
 * parameters: `"minute";r=59;t=42`), read without the general parser and as it reads it (RFC 9651 §4.2.1:
 * leading spaces, `,` between members with spaces or tabs around it, the last parameter of a name wins); null
 * for anything else, which the general parser then reads. A server sends a new `RateLimit` value with every
 * answer, so this runs on every answer judged: a loop over character codes, no regular expression.
 */
export function parseSimpleList(raw: string): Array<[string, Params]> | null {
  const end = raw.length;
  let i = 0;
  while (raw.charCodeAt(i) === SP) i++;
  const members: Array<[string, Params]> = [];
  if (i === end) return members;
  for (;;) {
    if (raw.charCodeAt(i) !== 34) return null;
    const start = ++i;
    // Printable ASCII up to the closing quote; a backslash (an escape) or the end of input: not this form.
    for (let c = raw.charCodeAt(i); c !== 34; c = raw.charCodeAt(++i))
      if (!(c >= 0x20 && c <= 0x7e) || c === 92) return null;
    const name = raw.slice(start, i++);
    const params: Params = new Map();
    while (raw.charCodeAt(i) === 59) {
      i++;
      while (raw.charCodeAt(i) === SP) i++;
      const k = i;
      if (!keyStart(raw.charCodeAt(i))) return null;
      while (keyChar(raw.charCodeAt(++i)));
      const key = raw.slice(k, i);
      if (raw.charCodeAt(i) !== 61) return null;
      const digits = ++i;
      let value = 0;
      for (let c = raw.charCodeAt(i); c >= 48 && c <= 57; c = raw.charCodeAt(++i))
        value = value * 10 + (c - 48);
      // No digit (a sign, a Token…) or more than an Integer's 15.
      if (i === digits || i - digits > 15) return null;
      params.set(key, value);
    }
    members.push([name, params]);
    while (raw.charCodeAt(i) === SP || raw.charCodeAt(i) === HTAB) i++;
    if (i === end) return members;
    if (raw.charCodeAt(i) !== 44) return null;
    i++;
    while (raw.charCodeAt(i) === SP || raw.charCodeAt(i) === HTAB) i++;
    // A trailing comma is the general parser's refusal.
    if (i === end) return null;
  }
}

function parse<T>(
  field: string,
  raw: string,
  build: (name: string, params: Params) => T | string,
): Parsed<T> {
  let list: ReturnType<typeof parseList> | Array<[string, Params]>;
  try {
    list = parseSimpleList(raw) ?? parseList(raw);
  } catch (err) {
    return {
      ok: false,
      problem: `${field} "${raw}" is not a structured field List: ${(err as Error).message}`,
    };
  }
  const items: T[] = [];
  for (const member of list) {
    const name = nameOf(member);
    if (name === undefined) return { ok: false, problem: `${field} "${raw}": each item must be a String` };
    const built = build(name, member[1] as Params);
    if (typeof built === 'string') return { ok: false, problem: `${field} "${raw}": ${built}` };
    items.push(built);
  }
  return { ok: true, items };
}

/** Parse `RateLimit-Policy`: each item needs q (a non-negative Integer); w, when given, a positive Integer. */
export function parsePolicy(raw: string): Parsed<RateLimitPolicy> {
  return parse('RateLimit-Policy', raw, (name, params) => {
    const q = params.get('q');
    const w = params.get('w');
    if (!nonNegativeInt(q)) return `policy "${name}" needs q as a non-negative Integer`;
    if (w !== undefined && !(nonNegativeInt(w) && w > 0))
      return `policy "${name}" has w that is not a positive Integer`;
    return { name, q, w: w as number | undefined };
  });
}

/** Parse `RateLimit`: each item needs r (a non-negative Integer); t, when given, a non-negative Integer. */
export function parseRateLimit(raw: string): Parsed<RateLimitItem> {
  return parse('RateLimit', raw, (name, params) => {
    const r = params.get('r');
    const t = params.get('t');
    if (!nonNegativeInt(r)) return `limit "${name}" needs r as a non-negative Integer`;
    if (t !== undefined && !nonNegativeInt(t))
      return `limit "${name}" has t that is not a non-negative Integer`;
    return { name, r, t: t as number | undefined };
  });
}

/** The binding limit of a `RateLimit` value (the smallest r), or undefined when absent or unparseable. */
export function bindingLimit(raw: string | undefined): RateLimitItem | undefined {
  if (raw === undefined) return undefined;
  const parsed = parseRateLimit(raw);
  if (!parsed.ok || parsed.items.length === 0) return undefined;
  return parsed.items.reduce((a, b) => (b.r < a.r ? b : a));
}

/** Retry-After as milliseconds: delta-seconds (fractions tolerated) or an HTTP date. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
