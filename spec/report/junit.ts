/** JUnit XML: one test case per rule, a failure per failed rule, a skipped element per skip. */
import type { Report, RuleResult } from './types';
import { bodyExcerpt, cleanupLines, describeEvidence } from './describe';
import { coverageGapLines, coverageLine } from './coverage';

/** Escape text for XML attributes and content (control characters dropped). */
export function xmlEscape(text: string): string {
  // XML 1.0 cannot carry most control characters, even escaped.
  const printable = [...text].filter((ch) => ch >= ' ' || ch === '\n' || ch === '\t' || ch === '\r').join('');
  return printable
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function testCase(rule: RuleResult): string {
  const name = xmlEscape(`${rule.id}: ${rule.title}`);
  const open = `    <testcase classname="conformance.${rule.kind}" name="${name}" file="${xmlEscape(rule.source)}">`;
  if (rule.status === 'pass') return `${open}</testcase>`;
  const first = rule.evidence[0]?.problem ?? '';
  if (rule.status === 'skip') return `${open}<skipped message="${xmlEscape(first)}"/></testcase>`;
  const details = rule.evidence
    .map((e) => `${describeEvidence(e)}${e.response ? `\nbody: ${bodyExcerpt(e, 1000)}` : ''}`)
    .join('\n\n');
  const tag = rule.kind === 'assumption' ? 'failure type="assumption"' : 'failure type="contract"';
  return `${open}\n      <${tag} message="${xmlEscape(first)}">${xmlEscape(details)}</failure>\n    </testcase>`;
}

/** The JUnit reporter. */
export function formatJunit(report: Report): string {
  const { pass, fail, skip } = report.summary;
  const total = pass + fail + skip;
  const client = report.clientRequests ?? [];
  const seconds = (report.durationMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" tests="${total + client.length}" failures="${fail}" skipped="${skip}" time="${seconds}">`,
    `  <testsuite name="${xmlEscape(report.target)}" tests="${total}" failures="${fail}" skipped="${skip}" errors="0" time="${seconds}" timestamp="${report.startedAt}">`,
    ...report.rules.map(testCase),
    ...cleanupOutput(report),
    '  </testsuite>',
    ...clientSuite(client, report.startedAt),
    '</testsuites>',
    '',
  ].join('\n');
}

/** The client's refused requests: a suite of its own that never fails (what was seen is in each case's output). */
function clientSuite(rules: readonly RuleResult[], startedAt: string): string[] {
  if (rules.length === 0) return [];
  const cases = rules.map((rule) => {
    const name = xmlEscape(`${rule.id}: ${rule.title}`);
    const seen = rule.evidence.map((e) => describeEvidence(e)).join('\n\n');
    return `    <testcase classname="client.requests" name="${name}" file="${xmlEscape(rule.source)}"><system-out>${xmlEscape(seen)}</system-out></testcase>`;
  });
  return [
    `  <testsuite name="client requests the document refuses (not the server's fault)" tests="${rules.length}" failures="0" skipped="0" errors="0" time="0" timestamp="${startedAt}">`,
    ...cases,
    '  </testsuite>',
  ];
}

/** What the run could not clean up and the pairs it did not observe, as the suite's system-out (CI systems show it beside the cases). */
function cleanupOutput(report: Report): string[] {
  // The pairs not observed, each with why, beside what the run could not clean up.
  const gaps = report.coverage.some((c) => !c.observed)
    ? [coverageLine(report.coverage), ...coverageGapLines(report.coverage, Infinity)]
    : [];
  const lines = [...cleanupLines(report).filter(Boolean), ...gaps];
  return lines.length > 0 ? [`    <system-out>${xmlEscape(lines.join('\n'))}</system-out>`] : [];
}
