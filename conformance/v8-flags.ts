/**
 * The runner's own V8 settings, made when it starts as a command: loaded first by `conformance/cli.ts` (and by
 * the installed command, bin/commands.js), before the rest of the runner, and only when the process's main
 * script is the CLI; a library caller (`runConformance`, a test importing the CLI) keeps its own settings.
 */
import v8 from 'node:v8';

/**
 * V8 settings the runner gives itself with `--low-memory` (issue 29, docs/large-documents.md#the-runners-memory):
 * the young generation does not grow past its first size, the old one is sized for memory rather than speed after
 * each collection, and functions stay in the interpreter. They took a run of 16,000 exchanges on the
 * 1,000-operation document from 160 MB to about 81 MB peak RSS on Node 20 (245 to 91 MB on Node 24), for about
 * 2.4 times the CPU time. A heap flag of yours (`NODE_OPTIONS=--max-old-space-size=4096`, or any flag below) gives
 * V8's defaults back. V8 reads them each time it decides (grow the young generation, size the old one, tier a
 * function up), so setting them once the process runs takes effect; they change no result.
 */
export const RUNNER_V8_FLAGS = [
  '--semi-space-growth-factor=1',
  '--optimize-for-size',
  '--no-opt',
  '--no-maglev',
  '--no-sparkplug',
] as const;

/**
 * The most the young generation may take by default: two 16 MB semi-spaces, V8's own limit on Node 20 and 22.
 * Node 24's V8 lets it grow to 128 MB (two of 64 MB) over a run of thousands of exchanges: 261-263 MB peak RSS
 * on the 1,000-operation document (186-196 MB once issue 39 cut what each exchange builds; 162-165 MB held here). It is held here by no longer growing it once it is this size (issue 39): on
 * Node 20 and 22 it never grows past it anyway, so nothing changes there.
 */
export const YOUNG_GENERATION_CAP = 32 * 2 ** 20;

/**
 * The old generation's growth by default: after each full collection V8 lets it reach 1.5 times what was live
 * (V8's own factor goes up to 4 on a machine with memory to spare). The run's live heap is about 35 MB; left to
 * grow 4 times it filled with the garbage of thousands of exchanges first: 153-223 MB peak RSS on Node 20 against
 * 146-148 MB with this, for a few more full collections of a small heap (no measurable CPU; issue 39,
 * docs/large-documents.md#the-runners-memory).
 */
export const RUNNER_HEAP_FLAGS = ['--heap-growing-percent=50'] as const;

/** A flag that tunes the heap or the compilers: one given by the user turns the runner's own settings off. */
const TUNING =
  /^--(no-)?(max-semi-space-size|min-semi-space-size|semi-space-growth-factor|max-old-space-size|max-young-generation-size|max-heap-size|heap-growing-percent|optimize-for-size|lite-mode|jitless|opt|turbofan|maglev|sparkplug)(=|$)/;

/**
 * What the runner sets for itself: V8's compilers and defaults with the heap's two bounds (RUNNER_HEAP_FLAGS, the
 * young generation held to its cap), or `--low-memory`'s flags, or nothing.
 */
export type RunnerV8Settings =
  { kind: 'defaults'; flags: string[] } | { kind: 'low-memory'; flags: string[] } | { kind: 'yours' };

/**
 * Pure: the runner's V8 settings: V8's compilers and defaults but for the heap's growth (since issue 39: the run
 * allocates and keeps little enough that V8's speed fits the memory bound), the interpreter-only set with `--low-memory`, and nothing at all when node's
 * command line (`execArgv`) or `NODE_OPTIONS` already tunes the heap or the compilers (kept whole).
 */
export function runnerV8Settings(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  argv: readonly string[],
): RunnerV8Settings {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((a) => a.replace(/_/g, '-'));
  if (given.some((a) => TUNING.test(a))) return { kind: 'yours' };
  return argv.includes('--low-memory')
    ? { kind: 'low-memory', flags: [...RUNNER_V8_FLAGS] }
    : { kind: 'defaults', flags: [...RUNNER_HEAP_FLAGS] };
}

/** The young generation's size now (`new_space`: its two semi-spaces). */
const youngGeneration = (): number =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/**
 * Stop the young generation growing once it reaches YOUNG_GENERATION_CAP (`--max-semi-space-size` cannot be
 * changed once the heap exists; the growth factor is read at each growth). Checked on an unref'd timer: it
 * grows a step at a time, seconds apart, and the check never keeps the process alive.
 */
function holdYoungGeneration(everyMs = 100): void {
  const timer = setInterval(() => {
    if (youngGeneration() < YOUNG_GENERATION_CAP) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    clearInterval(timer);
  }, everyMs);
  timer.unref();
}

/** Apply runnerV8Settings to this process (the installed command calls it before loading the runner). */
export function tuneV8ForRun(): void {
  const settings = runnerV8Settings(process.execArgv, process.env.NODE_OPTIONS, process.argv.slice(2));
  if (settings.kind === 'yours') return;
  for (const flag of settings.flags) v8.setFlagsFromString(flag);
  if (settings.kind === 'defaults') holdYoungGeneration();
}

if (/conformance[\\/]cli\.[jt]s$/.test(require.main?.filename ?? '')) tuneV8ForRun();
