/**
 * The sweep's independent judge (issue 40, `JUDGE=prism`): Stoplight Prism's validation proxy
 * (`prism proxy FILE UPSTREAM --errors`) in front of our mock. A judge that shares our reading shares our
 * mistakes; Prism reads the document with its own code. An answer conforms by this judge only if Prism reports
 * no violation of the response (its `sl-violations` header) and did not answer itself instead of forwarding.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { PRISM_MAIN } from '../targets';
import { isXmlMediaType } from '../../spec/xml';
import type { SweepAnswer } from './sweep-judge';

/**
 * The Prism CLI's entry point: the installed dev dependency, or `version` (`PRISM_VERSION=5.14.2`) fetched once
 * by npm's own client (`npm exec`, its cache) and resolved from the `prism` it puts on the PATH.
 */
export function prismCli(version?: string): string {
  if (!version) return PRISM_MAIN;
  const bin = execFileSync(
    'npm',
    ['exec', '--yes', `--package=@stoplight/prism-cli@${version}`, '--', 'sh', '-c', 'command -v prism'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 },
  ).trim();
  return fs.realpathSync(bin);
}

/** The installed version of the CLI at `main` (dist/index.js), read from its package.json. */
export function prismVersion(main: string): string {
  const pkg = JSON.parse(fs.readFileSync(main.replace(/dist[/\\]index\.js$/, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '?';
}

interface Violation {
  location?: string[];
  severity?: string;
  code?: string | number;
  message?: string;
}

/** What Prism said about one answer: each violation as `severity location message`. */
export interface PrismVerdict {
  /** Violations of the response, and an answer Prism made itself: the answer does not conform. */
  response: string[];
  /** Violations Prism found in our request (the plan's, not the mock's). */
  request: string[];
  /** Prism answered itself (a problem+json of its own) instead of forwarding ours. */
  selfAnswered: boolean;
  /** It did so because it found our request invalid (422) or its credentials missing (401): nothing judged. */
  requestRefused: boolean;
}

const line = (v: Violation) =>
  `${v.severity ?? ''} ${(v.location ?? []).join('.')} ${v.message ?? ''}`.replace(/\s+/g, ' ').trim();

/** Read Prism's verdict from the headers and body it answered with. */
export function prismVerdict(headers: Record<string, string>, body: string): PrismVerdict {
  const verdict: PrismVerdict = { response: [], request: [], selfAnswered: false, requestRefused: false };
  const header = headers['sl-violations'];
  if (header) {
    let list: Violation[] = [];
    try {
      list = JSON.parse(header) as Violation[];
    } catch {
      verdict.response.push(header.slice(0, 300));
    }
    for (const v of list) (v.location?.[0] === 'request' ? verdict.request : verdict.response).push(line(v));
  }
  const own = /stoplight\.io\/prism\/errors#([A-Z_]+)/.exec(body);
  if (own) {
    verdict.selfAnswered = true;
    // A request Prism refuses never reaches ours: the plan's request is what it judged, not our answer.
    verdict.requestRefused = own[1] === 'UNPROCESSABLE_ENTITY' || own[1] === 'UNAUTHORIZED';
    (verdict.requestRefused ? verdict.request : verdict.response).push(
      `Prism answered itself: ${body.slice(0, 300)}`,
    );
  }
  return verdict;
}

/**
 * Prism's verdict on our answer with `status`, or undefined when Prism judged none (it refused the request).
 * Ours refusing (400, 422) a request Prism's validator accepts is a violation too: a valid request refused;
 * unless the operation documents no success at all (`successDocumented` false: Vercel's `GET
 * /v8/artifacts/status` documents 400, 402 and 403 only), where a documented 400 is the answer it has.
 */
export function prismProblems(
  verdict: PrismVerdict,
  status: number,
  body = '',
  contentType = '',
  successDocumented = true,
): string[] | undefined {
  if (verdict.requestRefused) return undefined;
  const why = refusalText(body);
  const refused =
    successDocumented && (status === 400 || status === 422)
      ? [`refused a request Prism accepts (${status}): ${why}`]
      : [];
  return [...readable(verdict.response, contentType), ...refused];
}

/**
 * What a refusal says: its `message`, else a problem's `detail` or `title` (the document's own error shape may
 * name it otherwise), else the body's start; an empty refusal is named as such rather than judged silently.
 */
export function refusalText(body = ''): string {
  let said: unknown;
  try {
    said = JSON.parse(body);
  } catch {
    said = undefined;
  }
  const o = (typeof said === 'object' && said !== null ? said : {}) as Record<string, unknown>;
  const text = [o.message, o.detail, o.title, o.error].find((v) => typeof v === 'string' && v.trim() !== '');
  const why = typeof text === 'string' ? text : body.trim();
  return (why || '(no message)').slice(0, 160);
}

/**
 * Prism reads every body that is not JSON (`application/json`, `application/*+json`: prism-http's
 * parseResponseBody) as text and checks that string against the schema: an XML answer, or a text one
 * (`text/plain`, a vendor type, CSV), of an object or array schema is always "must be object" (checked by hand
 * with Prism 5.14.2: no text passes). Those violations say nothing about our body; they are left out (and
 * counted, `xmlUnread`, `textUnread`), the body judged by a second reader (sweep-xml.ts, sweep-text.ts).
 */
function readable(violations: string[], contentType: string): string[] {
  if (!readAsText(contentType)) return violations;
  const unread = isXmlMediaType(contentType) ? XML_AS_TEXT : TEXT_AS_TEXT;
  const kept = violations.filter((v) => !unread.test(v) && !v.startsWith('Prism answered itself'));
  // Prism's own answer (--errors) stands when a violation other than the body's remains.
  const own = violations.filter((v) => v.startsWith('Prism answered itself'));
  return kept.some((v) => v.startsWith('Error')) ? [...kept, ...own] : kept;
}

const XML_AS_TEXT = /^\w+ response\.body\b/;
/** Of a text answer only the type of the whole body is left out: a string schema's verdict stands. */
const TEXT_AS_TEXT = /^\w+ response\.body Response body must be (object|array)\b/;

/** Does Prism read a body of `contentType` as text (prism-http's `type-is` test for JSON)? */
export function readAsText(contentType: string): boolean {
  const base = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (base === '') return false;
  return !(base === 'application/json' || /^application\/[^/]*\+json$/.test(base));
}

/** Did Prism judge an XML answer as text (body violations left out by `readable`)? */
export const xmlUnread = (violations: string[], contentType: string): boolean =>
  isXmlMediaType(contentType) && violations.some((v) => XML_AS_TEXT.test(v));

/** Did Prism judge a text answer (not XML, not JSON) of an object or array schema as a string? */
export const textUnread = (violations: string[], contentType: string): boolean =>
  readAsText(contentType) && !isXmlMediaType(contentType) && violations.some((v) => TEXT_AS_TEXT.test(v));

/**
 * The class of one violation: document-specific parts (property names, values, paths) blurred, so the table
 * groups one kind of mistake in one line.
 */
export function violationClass(violation: string): string {
  // Our own refusal names the class in its message (`/request_body is not allowed`): kept, values blurred.
  if (violation.startsWith('refused')) return violation.replace(/'[^']*'/g, "'…'").slice(0, 140);
  return violation
    .replace(
      /^Prism answered itself: .*?"type":"https:\/\/stoplight\.io\/prism\/errors#([A-Z_]+)".*$/,
      'Prism $1',
    )
    .replace(/^(\w+ )(response|request)\.[^ ]*/, '$1$2.…')
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\/[^\s,]*/g, '…')
    .replace(/\d+/g, 'N')
    .slice(0, 140);
}

/** The part of a document's row Prism's judge reads. */
interface JudgedRow {
  document: string;
  answers: SweepAnswer[];
}

export interface JudgeSummary {
  /** Answers Prism judged (it forwarded them or answered itself). */
  judged: number;
  /** Of those: no violation of the response by Prism; and by our rules too. */
  prismConforming: number;
  bothConforming: number;
  /** Documents whose every judged answer conforms by Prism, of the documents with a judged answer. */
  documentsConforming: number;
  documentsJudged: number;
  /** XML answers whose body Prism read as text (left out of its verdict; our XML reader judged them). */
  xmlUnread: number;
  /** Text answers (neither XML nor JSON) of object schemas Prism read as a string (judged by sweep-text.ts). */
  textUnread: number;
  /** Violation classes of the response, with answers and documents; and of our requests. */
  classes: { violation: string; answers: number; documents: string[] }[];
  requestClasses: { violation: string; answers: number; documents: string[] }[];
}

function tally(rows: JudgedRow[], pick: (a: JudgedRow['answers'][number]) => string[] | undefined) {
  const classes = new Map<string, { answers: number; documents: Set<string> }>();
  for (const row of rows)
    for (const a of row.answers)
      for (const c of new Set((pick(a) ?? []).map(violationClass))) {
        const entry = classes.get(c) ?? { answers: 0, documents: new Set<string>() };
        entry.answers++;
        entry.documents.add(row.document);
        classes.set(c, entry);
      }
  return [...classes]
    .map(([violation, e]) => ({ violation, answers: e.answers, documents: [...e.documents] }))
    .sort((a, b) => b.answers - a.answers);
}

export function judgeSummary(rows: JudgedRow[]): JudgeSummary {
  const judged = rows.flatMap((r) => r.answers.filter((a) => a.prism !== undefined));
  const withJudged = rows.filter((r) => r.answers.some((a) => a.prism !== undefined));
  return {
    judged: judged.length,
    prismConforming: judged.filter((a) => a.prism?.length === 0).length,
    bothConforming: judged.filter((a) => a.prism?.length === 0 && a.problems.length === 0).length,
    documentsJudged: withJudged.length,
    xmlUnread: judged.filter((a) => a.xmlUnread).length,
    textUnread: judged.filter((a) => a.textUnread).length,
    documentsConforming: withJudged.filter((r) => r.answers.every((a) => !a.prism?.length)).length,
    classes: tally(rows, (a) => a.prism),
    requestClasses: tally(rows, (a) => a.prismRequest),
  };
}

/** The judge's lines of the sweep's table, in Markdown. */
export function formatJudge(j: JudgeSummary, version: string, rows: JudgedRow[]): string[] {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);
  const lines = [
    `## Prism ${version}'s validation proxy as judge (\`prism proxy --errors\`)`,
    '',
    `- answers judged: ${j.judged}; conforming by Prism: ${j.prismConforming} (${pct(j.prismConforming, j.judged)}); by Prism and our rules: ${j.bothConforming} (${pct(j.bothConforming, j.judged)})`,
    `- documents whose every answer conforms by Prism: ${j.documentsConforming} of ${j.documentsJudged}`,
    `- XML answers whose body Prism read as text (its body verdict left out; judged by our XML reader): ${j.xmlUnread}`,
    `- text answers of object schemas Prism read as a string (\`text/plain\`, vendor types, CSV; judged by the second text reader): ${j.textUnread ?? 0}`,
    '',
  ];
  const list = (title: string, classes: JudgeSummary['classes']) => {
    if (!classes.length) return;
    lines.push(`### ${title}`, '');
    for (const c of classes.slice(0, 30))
      lines.push(
        `- ${c.answers} × \`${c.violation}\` (${c.documents.length}: ${c.documents.slice(0, 3).join(', ')})`,
      );
    lines.push('');
  };
  list('Violations of our answers, by class', j.classes);
  list("Violations Prism found in the plan's requests (not counted against the answers)", j.requestClasses);
  const broken = rows.flatMap((r) =>
    r.answers.filter((a) => a.prism?.length).map((a) => ({ r: r.document, a })),
  );
  if (broken.length) {
    lines.push('### Answers Prism finds wrong (first 60)', '');
    for (const { r, a } of broken.slice(0, 60))
      lines.push(
        `- ${r} ${a.method.toUpperCase()} ${a.path} ${a.status}: ${a.prism?.[0]?.slice(0, 220) ?? ''}`,
      );
    lines.push('');
  }
  return lines;
}
