/** Short one-line texts of evidence, shared by the reporters. */
import type { Evidence, Report, RuleResult } from './types';

/** Extra facts a reporter may show that are not part of the report object. */
export interface ReportMeta {
  seed?: number;
  color?: boolean;
}

/** `POST http://host/v1/books -> 400` with the first line of the problem. */
export function describeEvidence(e: Evidence): string {
  const req = e.request ? `${e.request.method} ${e.request.url}` : '';
  const res = e.response ? ` -> ${e.response.status}` : '';
  const auth = e.request?.headers.Authorization ?? e.request?.headers.authorization;
  const who = auth !== undefined ? ` [Authorization: ${auth}]` : '';
  return [e.problem, req ? `${req}${who}${res}` : ''].filter(Boolean).join(' | ');
}

/** Why a rule has its status, in one line (empty for a pass). */
export function whyOf(rule: RuleResult): string {
  const first = rule.evidence[0];
  return first ? first.problem : '';
}

/** The response body excerpt of a piece of evidence, cut to `max` characters. */
export function bodyExcerpt(e: Evidence, max = 300): string {
  const body = e.response?.body ?? '';
  return body.length > max ? `${body.slice(0, max)}…` : body;
}

/** What the clean-up did and what it left, one line per resource and reason (empty when nothing was made). */
export function cleanupLines(report: Report): string[] {
  const cleanup = report.cleanup;
  if (!cleanup || (cleanup.deleted === 0 && cleanup.leftovers.length === 0)) return [];
  const groups = new Map<string, string[]>();
  for (const l of cleanup.leftovers) {
    const key = `${l.resource}: ${l.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), l.id]);
  }
  const lines = ['', `Clean-up: ${cleanup.deleted} deleted, ${cleanup.leftovers.length} left on the target`];
  for (const [key, ids] of groups) lines.push(`  left: ${key} (ids ${ids.join(', ')})`);
  return lines;
}
