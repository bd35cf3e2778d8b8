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

/** One member of the common form: a String without escapes, then Integer parameters (`"minute";r=59;t=42`). */
const SIMPLE_MEMBER =
  /"([\x20\x21\x23-\x5b\x5d-\x7e]*)"((?:; *[a-z*][a-z0-9_.*-]*=\d{1,15})*)(?=[ \t]*(?:,|$))/y;
const SIMPLE_PARAM = /; *([a-z*][a-z0-9_.*-]*)=(\d+)/g;
const SEPARATOR = /[ \t]*,[ \t]*/y;

/**
 * A List in the common form every server sends (Strings with non-negative Integer parameters), read without the
 * general parser, as it reads it (RFC 9651 §4.2.1: leading spaces, `,` between members with optional spaces or
 * tabs around it, the last parameter of a name wins); null for anything else, which the general parser reads.
 * A server answers with a new `RateLimit` value every time, so this runs on every answer judged.
 */
export function parseSimpleList(raw: string): Array<[string, Params]> | null {
  let pos = 0;
  while (raw.charCodeAt(pos) === 32) pos++;
  const members: Array<[string, Params]> = [];
  if (pos === raw.length) return members;
  for (;;) {
    SIMPLE_MEMBER.lastIndex = pos;
    const m = SIMPLE_MEMBER.exec(raw);
    if (!m) return null;
    const params: Params = new Map();
    for (const p of (m[2] ?? '').matchAll(SIMPLE_PARAM)) params.set(p[1] ?? '', Number(p[2]));
    members.push([m[1] ?? '', params]);
    pos = SIMPLE_MEMBER.lastIndex;
    SEPARATOR.lastIndex = pos;
    if (!SEPARATOR.exec(raw)) return /^[ \t]*$/.test(raw.slice(pos)) ? members : null;
    pos = SEPARATOR.lastIndex;
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
