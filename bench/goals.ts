/**
 * Issue 14's targets, judged from one run's numbers: each is held, missed, or not measured (with why).
 * Pure, so the table of goals is tested without running a bench.
 */
export interface GoalInput {
  /** Median req/s of our mock and of the ceiling, per workload, with the share of expected statuses. */
  rps: Partial<Record<string, { ours: number; ceiling?: number; expectedShare: number }>>;
  startupDistMs: number | null;
  startupNpmStartMs: number | null;
  peakRssBytes: number | null;
  fetchAdapterRps: number | null;
  /** Why a workload did not run (e.g. the by-id pair before item routes exist). */
  skipped: Partial<Record<string, string>>;
}

export interface Goal {
  goal: string;
  measured: string;
  /** null: not measured in this run. */
  held: boolean | null;
}

/** Below this share of the expected status (e.g. 429s mixed into a 401 run) a ratio says nothing. */
const STATUS_SHARE = 0.995;

function ratioGoal(input: GoalInput, workload: string, label: string, min: number): Goal {
  const goal = `${label} ≥ ${min.toFixed(1)}× the ceiling`;
  const r = input.rps[workload];
  if (!r || r.ceiling === undefined)
    return { goal, measured: input.skipped[workload] ?? 'not run', held: null };
  const ratio = r.ours / r.ceiling;
  if (r.expectedShare < STATUS_SHARE)
    return {
      goal,
      measured: `${ratio.toFixed(2)}×, but only ${pct(r.expectedShare)} expected statuses`,
      held: false,
    };
  return { goal, measured: `${ratio.toFixed(2)}×`, held: ratio >= min };
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

function byIdGoal(input: GoalInput): Goal {
  const goal = 'GET by id, 10,000 stored: within 10 % of 10 stored (req/s)';
  const small = input.rps['by-id-10'];
  const large = input.rps['by-id-10k'];
  if (!small || !large)
    return {
      goal,
      measured: input.skipped['by-id-10'] ?? input.skipped['by-id-10k'] ?? 'not run',
      held: null,
    };
  const ratio = large.ours / small.ours;
  const statusesOk = small.expectedShare >= STATUS_SHARE && large.expectedShare >= STATUS_SHARE;
  return { goal, measured: `${ratio.toFixed(2)}× (10,000 vs 10)`, held: statusesOk && ratio >= 0.9 };
}

function under(goal: string, value: number | null, limit: number, unit: string, why: string): Goal {
  if (value === null) return { goal, measured: why, held: null };
  return { goal, measured: `${value.toFixed(0)} ${unit}`, held: value < limit };
}

/** Every target of issue 14, in the order. */
export function judgeGoals(input: GoalInput): Goal[] {
  const mb = input.peakRssBytes === null ? null : input.peakRssBytes / 1024 / 1024;
  return [
    ratioGoal(input, 'list', 'GET list', 0.7),
    ratioGoal(input, 'create', 'POST create', 0.5),
    ratioGoal(input, 'unauthorized', '401', 0.6),
    ratioGoal(input, 'not-found', '404', 0.6),
    byIdGoal(input),
    under('npm start, second time: first answer < 1 s', input.startupNpmStartMs, 1000, 'ms', 'not measured'),
    under(
      'node dist/mock/node/main.js: first answer < 300 ms',
      input.startupDistMs,
      300,
      'ms',
      'not measured',
    ),
    under('peak RSS of our mock under load < 120 MB', mb, 120, 'MB', 'not measured'),
    input.fetchAdapterRps === null
      ? { goal: 'fetch adapter in-process: req/s reported', measured: 'no fetch adapter yet', held: null }
      : {
          goal: 'fetch adapter in-process: req/s reported',
          measured: `${input.fetchAdapterRps.toFixed(0)} req/s`,
          held: true,
        },
  ];
}

/** `held` / `MISSED` / `not measured`, as the report prints it. */
export const verdict = (g: Goal): string => (g.held === null ? 'not measured' : g.held ? 'held' : 'MISSED');
