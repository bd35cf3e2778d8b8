/**
 * A failing request made minimal: properties dropped one at a time, strings shortened, numbers moved toward
 * zero, as long as the document still gives it the same expectation and the server still fails it. Greedy and
 * deterministic: the same server shrinks the same case to the same request.
 */
import type { FuzzRequest } from './cases';
import { DELETE, getAt, isObject, setAt, type JsonPath } from './json-path';

/** Requests one step smaller than `request`, the likeliest big wins first. */
export function smallerRequests(request: FuzzRequest): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (const body of smallerValues(request.body, [])) out.push({ ...request, body });
  for (const [name, value] of Object.entries(request.query ?? {})) {
    const query = { ...request.query };
    delete query[name];
    out.push({ ...request, query });
    for (const shorter of shorterStrings(value))
      out.push({ ...request, query: { ...query, [name]: shorter } });
  }
  return out;
}

function smallerValues(root: unknown, path: JsonPath): unknown[] {
  const value = getAt(root, path);
  const out: unknown[] = [];
  if (isObject(value)) {
    for (const key of Object.keys(value)) out.push(setAt(root, [...path, key], DELETE));
    for (const key of Object.keys(value)) out.push(...smallerValues(root, [...path, key]));
  } else if (Array.isArray(value) && value.length > 1) {
    out.push(setAt(root, path, value.slice(0, value.length - 1)));
  } else if (typeof value === 'string') {
    for (const shorter of shorterStrings(value)) out.push(setAt(root, path, shorter));
  } else if (typeof value === 'number' && value !== 0) {
    const toward = [0, Math.trunc(value / 2), value - Math.sign(value)];
    for (const n of new Set(toward)) if (Math.abs(n) < Math.abs(value)) out.push(setAt(root, path, n));
  }
  return out;
}

function shorterStrings(text: string): string[] {
  if (text.length === 0) return [];
  const half = Math.floor(text.length / 2);
  // Both ends: a format (an email) may survive losing its start but not its end.
  const cuts = ['', text.slice(0, half), text.slice(half), text.slice(0, -1), text.slice(1)];
  return [...new Set(cuts)].filter((t) => t.length < text.length);
}

export interface Shrunk {
  request: FuzzRequest;
  /** Requests sent while shrinking. */
  tries: number;
}

/**
 * The smallest request reachable from `start` where `keeps` (the same expectation) holds and `stillFails`
 * (the server still gets it wrong) is true; at most `budget` requests are sent.
 */
export async function shrink(
  start: FuzzRequest,
  keeps: (r: FuzzRequest) => boolean,
  stillFails: (r: FuzzRequest) => Promise<boolean>,
  budget: number,
): Promise<Shrunk> {
  let current = start;
  let tries = 0;
  for (let improved = true; improved && tries < budget;) {
    improved = false;
    for (const candidate of smallerRequests(current)) {
      if (tries >= budget) break;
      if (!keeps(candidate)) continue;
      tries += 1;
      if (await stillFails(candidate)) {
        current = candidate;
        improved = true;
        break;
      }
    }
  }
  return { request: current, tries };
}
