/**
 * The runner's own V8 settings, made when it starts as a command: loaded first by `conformance/cli.ts` (and by
 * the installed command, bin/commands.js), before the rest of the runner, and only when the process's main
 * script is the CLI; a library caller (`runConformance`, a test importing the CLI) keeps its own settings.
 */
import v8 from 'node:v8';

/**
 * V8 settings the runner gives itself with `--low-memory` (issue 29, docs/large-documents.md#the-runners-memory;
 * opt-in since issue 39: by default the compilers run at V8's own speed, with the heap sizing of RUNNER_HEAP_FLAGS):
 * the young generation does not grow past its first size, the old one is sized for memory rather than speed after
 * each collection, and functions stay in the interpreter (the compilers' code and work memory cost more than they
 * save in a run that mostly waits for the server). Together they take a run of 16,000 exchanges on the
 * 1,000-operation document from 160 MB to about 81 MB peak RSS on Node 20 (245 to 91 MB on Node 24), for about
 * 2.4 times the CPU time (measured in docs/large-documents.md: without --optimize-for-size 125 MB, with the
 * optimising compilers on 93 MB, with the baseline compiler on 84-100 MB). A heap flag of
 * yours (`NODE_OPTIONS=--max-old-space-size=4096`, or any flag below) gives V8's defaults back: speed over memory. They are read by V8 each time it decides
 * (grow the young generation, size the old one, tier a function up), so setting them once the process runs takes
 * effect; they change no result.
 */
export const RUNNER_V8_FLAGS = [
  '--semi-space-growth-factor=1',
  '--optimize-for-size',
  '--no-opt',
  '--no-maglev',
  '--no-sparkplug',
] as const;

/**
 * The heap sizing the runner keeps by default, with V8's compilers on (issue 39): left wholly to its defaults, V8
 * let the garbage of a 16,000-exchange run reach 186 MB peak RSS (105 MB of heap) on Node 20 and 257-261 MB on
 * Node 24; with these two, 96 MB and 122 MB. Only the interpreter-only flags above cost the 2.4x CPU.
 */
export const RUNNER_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--optimize-for-size'] as const;

/** A flag that tunes the heap or the compilers: one given by the user turns the runner's own settings off. */
const TUNING =
  /^--(no-)?(max-semi-space-size|min-semi-space-size|semi-space-growth-factor|max-old-space-size|max-young-generation-size|max-heap-size|optimize-for-size|lite-mode|jitless|opt|turbofan|maglev|sparkplug)(=|$)/;

/**
 * Pure: the flags the runner sets for itself: the heap sizing by default, the interpreter-only set too with
 * `--low-memory`, and none when node's command line (`execArgv`) or `NODE_OPTIONS` already tunes the heap or the
 * compilers (kept whole).
 */
export function runnerV8Flags(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  argv: readonly string[] = ['--low-memory'],
): string[] {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((a) => a.replace(/_/g, '-'));
  if (given.some((a) => TUNING.test(a))) return [];
  return argv.includes('--low-memory') ? [...RUNNER_V8_FLAGS] : [...RUNNER_HEAP_FLAGS];
}

/** Apply runnerV8Flags to this process (the installed command calls it before loading the runner). */
export function tuneV8ForRun(): void {
  const flags = runnerV8Flags(process.execArgv, process.env.NODE_OPTIONS, process.argv.slice(2));
  for (const flag of flags) v8.setFlagsFromString(flag);
}

if (/conformance[\\/]cli\.[jt]s$/.test(require.main?.filename ?? '')) tuneV8ForRun();
