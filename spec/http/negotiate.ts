/**
 * Content negotiation (RFC 9110 §12.5.1), decided once for the mock (its 406 and the type it answers in), the
 * proxy's judge and the runner: which documented media type a request's `Accept` allows.
 * - A media type is compared by its essence: type/subtype, case-insensitive, parameters ignored (`version=3`,
 *   `charset=utf-8`); `q=0` excludes.
 * - A structured suffix (RFC 6839) counts as its family: `application/vnd.github.v3+json` asks for JSON, so a
 *   documented `application/json` (or any `+json`) answers it; `+xml` likewise maps to documented XML.
 * - The most specific range that matches a documented type decides its quality (exact, then the suffix's
 *   family, then `type/*`, then `*`/`*`), so `*`/`*, application/json;q=0` excludes JSON.
 * - An `Accept` that is absent, empty or names nothing parseable allows everything: 406 only when the header
 *   truly excludes every documented type.
 */
import type { OperationSpec } from '../compile';
import type { RequestProblem } from './request-rules';

/** One range of an `Accept` header. */
export interface MediaRange {
  /** The essence, lower-cased: `application/json`, `text/*`, `*`/`*`. */
  essence: string;
  q: number;
}

/** Headers longer than this, and ranges past the 64th, are not read (a hostile header costs nothing). */
const MAX_ACCEPT = 4096;
const MAX_RANGES = 64;

/** Pure: the essence of a media type or range: `Application/JSON; charset=UTF-8` -> `application/json`. */
export function essenceOf(type: string): string {
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

/** JSON or XML, by the subtype or its structured suffix; undefined for any other type. */
export function familyOf(essence: string): 'json' | 'xml' | undefined {
  const slash = essence.indexOf('/');
  if (slash < 0) return undefined;
  const sub = essence.slice(slash + 1);
  if (sub === 'json' || sub.endsWith('+json')) return 'json';
  if (sub === 'xml' || sub.endsWith('+xml')) return 'xml';
  return undefined;
}

/** Pure: the ranges of an `Accept` header (malformed ones left out). */
export function parseAccept(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.slice(0, MAX_ACCEPT).split(',', MAX_RANGES)) {
    const [range = '', ...params] = part.split(';');
    const essence = range.trim().toLowerCase();
    if (!/^[\w.+*-]+\/[\w.+*-]+$/.test(essence)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m?.[1] !== undefined) q = Math.min(Math.max(Number(m[1]) || 0, 0), 1);
    }
    out.push({ essence, q });
  }
  return out;
}

/** How specifically `range` matches the documented `type` (higher wins), or -1 when it does not. */
function specificity(range: string, type: string): number {
  if (range === type) return 4;
  const family = familyOf(range);
  if (family && family === familyOf(type)) return 3;
  // A documented range (`image/*`, `*/*`) is answered in a type the request names.
  if (type === '*/*') return 1;
  const [rt, rs] = range.split('/');
  const [tt, ts] = type.split('/');
  if (ts === '*' && tt === rt) return 2;
  if (rs === '*' && rt === tt) return 2;
  return rt === '*' && rs === '*' ? 1 : -1;
}

/** The quality `ranges` give the documented `type`: that of the most specific matching range (0: excluded). */
function qualityOf(ranges: readonly MediaRange[], type: string): number {
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const s = specificity(r.essence, type);
    if (s > best || (s === best && r.q > q)) {
      best = s;
      q = r.q;
    }
  }
  return best < 0 ? 0 : q;
}

/**
 * Pure: the documented type (as written in the document) to answer `accept` with: the one of highest quality,
 * the document's order breaking ties; undefined when the header excludes every one (a 406). With no header
 * (or nothing readable in it), the first documented type.
 */
export function negotiate(offered: readonly string[], accept: string | undefined): string | undefined {
  const ranges = accept ? parseAccept(accept) : [];
  if (ranges.length === 0) return offered[0];
  let chosen: string | undefined;
  let best = 0;
  for (const type of offered) {
    const q = qualityOf(ranges, essenceOf(type));
    if (q > best) {
      best = q;
      chosen = type;
    }
  }
  return chosen;
}

/** The media types an operation answers with: those of its documented successes (2xx, `2XX`). */
export function offeredTypes(op: Pick<OperationSpec, 'responses'>): string[] {
  const out: string[] = [];
  for (const [status, r] of op.responses) if (status.startsWith('2')) out.push(...r.mediaTypes);
  return out;
}

/** Pure: the 406 of a request whose `Accept` excludes every type the operation answers with, or undefined. */
export function acceptProblem(
  op: Pick<OperationSpec, 'responses'>,
  accept: string | undefined,
): RequestProblem | undefined {
  if (!accept) return undefined;
  const offered = offeredTypes(op);
  if (offered.length === 0 || negotiate(offered, accept) !== undefined) return undefined;
  return {
    rule: 'request.accept',
    status: 406,
    message: `Accept: ${accept.slice(0, 200)} matches none of ${offered.join(', ')}`,
    pointer: '/header/accept',
  };
}
