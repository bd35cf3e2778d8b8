/**
 * The runner's `--diff OLD NEW [--har FILE…] [--report KIND=FILE]… [--reporter KIND] [--strict]`: the changes
 * between two versions of a document, and, with recorded traffic, what the new version would do to the calls
 * clients actually make. Exit 0, 1 or 2 (spec/diff/verdict.ts; docs/ship-safely.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { REPORTERS, type ReporterName } from '../../spec/report';
import { diffSpecs } from '../../spec/diff/compare';
import { formatDiff } from '../../spec/diff/report';
import type { DiffResult } from '../../spec/diff/types';
import { classifyChanges, diffVerdict } from '../../spec/diff/verdict';
import { harEntries } from './judge-har';
import { replayTraffic, type RecordedFile } from './diff-replay';

/** What the command line asks for, or why it cannot. */
export interface DiffOptions {
  old: string;
  new: string;
  har: string[];
  reports: { reporter: ReporterName; file: string }[];
  reporter: ReporterName;
  strict: boolean;
}

/** Largest HAR file read (a week of traffic is recorded as several files, not one of gigabytes). */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

/** Every report format but `coverage` (a diff observes no pairs). */
const KINDS = REPORTERS.filter((r) => r !== 'coverage');
const isReporter = (name: string): name is ReporterName => (KINDS as readonly string[]).includes(name);

/** Pure: argv to options. `--diff` and `--har` take every following argument that is not a flag. */
export function parseDiffArgs(
  argv: readonly string[],
): { ok: true; options: DiffOptions } | { ok: false; error: string } {
  const files: Record<'diff' | 'har', string[]> = { diff: [], har: [] };
  const options: DiffOptions = { old: '', new: '', har: [], reports: [], reporter: 'human', strict: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const name = m?.[1];
    if (arg === '--strict') options.strict = true;
    else if (name === 'diff' || name === 'har') {
      if (m?.[2] !== undefined) files[name].push(m[2]);
      while (argv[i + 1] !== undefined && !(argv[i + 1] ?? '').startsWith('--'))
        files[name].push(argv[++i] ?? '');
    } else if (name === 'report' || name === 'reporter') {
      const value = m?.[2] ?? argv[++i];
      if (value === undefined) return { ok: false, error: `--${name} needs a value` };
      if (name === 'reporter') {
        if (!isReporter(value)) return { ok: false, error: `--reporter must be one of ${KINDS.join(', ')}` };
        options.reporter = value;
        continue;
      }
      const r = /^([a-z]+)=(.+)$/.exec(value);
      if (!r?.[1] || !r[2] || !isReporter(r[1]))
        return {
          ok: false,
          error: `--report needs NAME=FILE with NAME one of ${KINDS.join(', ')}, got "${value}"`,
        };
      options.reports.push({ reporter: r[1], file: r[2] });
    } else return { ok: false, error: `unknown argument "${arg}" with --diff (see --help)` };
  }
  if (files.diff.length !== 2)
    return { ok: false, error: `--diff takes two documents, OLD and NEW (got ${files.diff.length})` };
  [options.old, options.new] = files.diff as [string, string];
  options.har = files.har;
  if (argv.some((a) => a === '--har' || a.startsWith('--har=')) && files.har.length === 0)
    return { ok: false, error: '--har needs at least one file' };
  return { ok: true, options };
}

function readHar(file: string): RecordedFile | string {
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_HAR_BYTES)
      return `${file} is ${size} bytes, over the ${MAX_HAR_BYTES}-byte limit: split it`;
    const parsed = harEntries(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown);
    return parsed.ok ? { file, entries: parsed.entries } : `${file}: ${parsed.error}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return `file not found: ${file}`;
    return `cannot read ${file}: ${(err as Error).message}`;
  }
}

/** Run the diff; resolves to the exit code. */
export async function runDiff(argv: readonly string[]): Promise<number> {
  const parsed = parseDiffArgs(argv);
  const fail = (message: string) => {
    process.stderr.write(`conformance: ${message}\n`);
    return 2;
  };
  if (!parsed.ok) return fail(parsed.error);
  const o = parsed.options;
  const specs: LoadedSpec[] = [];
  for (const file of [o.old, o.new]) {
    const spec = await loadSpecOrThrow(file).catch((err: Error) => err);
    if (spec instanceof Error) return fail(spec.message); // it names the file
    specs.push(spec);
  }
  const [before, after] = specs as [LoadedSpec, LoadedSpec];
  const recorded: RecordedFile[] = [];
  for (const file of o.har) {
    const har = readHar(file);
    if (typeof har === 'string') return fail(har);
    recorded.push(har);
  }
  const traffic = o.har.length > 0 ? replayTraffic(before, after, recorded) : undefined;
  const statuses = (id: string) => [...(before.byId.get(id)?.responses.keys() ?? [])];
  const result: DiffResult = {
    old: { file: o.old, version: before.document.info?.version },
    new: { file: o.new, version: after.document.info?.version },
    changes: classifyChanges(diffSpecs(before, after), traffic, statuses),
    ...(traffic ? { traffic } : {}),
  };
  const verdict = diffVerdict(result.changes, traffic, o.strict);
  for (const r of o.reports) {
    fs.mkdirSync(path.dirname(path.resolve(r.file)), { recursive: true });
    fs.writeFileSync(r.file, formatDiff(result, verdict, r.reporter, o.strict));
    process.stderr.write(`conformance: ${r.reporter} report in ${r.file}\n`);
  }
  process.stdout.write(formatDiff(result, verdict, o.reporter, o.strict));
  for (const reason of verdict.reasons)
    process.stderr.write(
      `conformance: exit ${verdict.code}: ${verdict.code === 2 ? 'could not judge: ' : ''}${reason}\n`,
    );
  return verdict.code;
}
