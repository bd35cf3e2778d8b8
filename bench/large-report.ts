/**
 * Issue 22's goals judged from one large-document run, and the section's tables. Pure, so the verdicts are
 * tested without starting a server.
 */
import { verdict, type Goal } from './goals';
import { table } from './lib/table';

/** One mock on GitHub's description: start, memory, latency and throughput of `GET /meta`. */
export interface SideBySide {
  /** Process start to the first answer (ours: validation cache warm). */
  startMs: number;
  /** Ours only: the same with SPEC_VALIDATION_CACHE=off (what a first start pays). */
  coldStartMs?: number;
  /** VmHWM right after the first answer, and at the end of the run (bytes). */
  startRss: number;
  peakRss: number;
  medianMs: number;
  rps: number;
}

export interface FamilyRow {
  operations: number;
  bytes: number;
  startMs: number;
  peakRss: number;
}

export interface LargeResult {
  prismVersion: string;
  ours: SideBySide;
  prism: SideBySide | null;
  /** Our mock's req/s on the pet store's `GET /v1/categories`, same load. */
  petstoreRps: number;
  family: FamilyRow[];
  goals: Goal[];
}

const x = (r: number) => `${r.toFixed(2)}×`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const ms = (m: number) => (m >= 100 ? `${Math.round(m)} ms` : `${m.toFixed(2)} ms`);

function vsPrism(goal: string, ours: number, prism: number | undefined, max: number): Goal {
  if (prism === undefined) return { goal, measured: 'Prism not run', held: null };
  const r = ours / prism;
  return { goal, measured: x(r), held: r <= max };
}

/**
 * Linear growth: the largest document costs at most 1.5× what a straight line through the smallest and the
 * second largest predicts (a quadratic cost overshoots it by far; noise does not).
 */
export function growsLinearly(points: ReadonlyArray<{ n: number; v: number }>): boolean | null {
  const sorted = [...points].sort((a, b) => a.n - b.n);
  const first = sorted[0];
  const mid = sorted[sorted.length - 2];
  const last = sorted[sorted.length - 1];
  if (!first || !mid || !last || sorted.length < 3 || mid.n === first.n) return null;
  const slope = Math.max(0, (mid.v - first.v) / (mid.n - first.n));
  const predicted = first.v + slope * (last.n - first.n);
  return last.v <= 1.5 * predicted;
}

/** Each of issue 22's measured goals: held, missed, or not measured. */
export function judgeLarge(r: Omit<LargeResult, 'goals'>): Goal[] {
  const p = r.prism ?? undefined;
  const start = vsPrism('start (warm) ≤ 0.25× Prism’s', r.ours.startMs, p?.startMs, 0.25);
  const cold = vsPrism('start (cold) ≤ 0.25× Prism’s', r.ours.coldStartMs ?? Infinity, p?.startMs, 0.25);
  const under2s = { goal: 'start (warm) < 2 s', measured: ms(r.ours.startMs), held: r.ours.startMs < 2000 };
  const rpsShare = r.ours.rps / r.petstoreRps;
  const family = (v: (f: FamilyRow) => number) =>
    growsLinearly(r.family.map((f) => ({ n: f.operations, v: v(f) })));
  const growth = (what: string, held: boolean | null): Goal => ({
    goal: `${what} grows at most linearly with operations`,
    measured: held === null ? 'family not run' : `see the family table`,
    held,
  });
  return [
    start,
    cold,
    under2s,
    vsPrism('peak RSS ≤ 0.6× Prism’s', r.ours.peakRss, p?.peakRss, 0.6),
    vsPrism('median GET /meta ≤ 0.2× Prism’s', r.ours.medianMs, p?.medianMs, 0.2),
    { goal: 'GET /meta req/s ≥ 0.7× pet store GET', measured: x(rpsShare), held: rpsShare >= 0.7 },
    growth(
      'start time',
      family((f) => f.startMs),
    ),
    growth(
      'peak RSS',
      family((f) => f.peakRss),
    ),
  ];
}

function sideRow(name: string, s: SideBySide): string[] {
  const cold = s.coldStartMs === undefined ? '-' : ms(s.coldStartMs);
  const rps = Math.round(s.rps).toLocaleString('en-US');
  return [name, cold, ms(s.startMs), mb(s.startRss), mb(s.peakRss), ms(s.medianMs), rps];
}

/** The section as text: side by side with Prism, the family, the goals. */
export function formatLarge(r: LargeResult): string {
  const rows = [
    ['GitHub REST (1,223 ops)', 'cold start', 'start', 'RSS at start', 'peak RSS', 'median GET', 'req/s'],
  ];
  rows.push(sideRow('ours', r.ours));
  if (r.prism) {
    rows.push(sideRow(`Prism ${r.prismVersion}`, r.prism));
    const p = r.prism;
    rows.push(['ours/Prism', '-', x(r.ours.startMs / p.startMs), x(r.ours.startRss / p.startRss)]);
    rows[rows.length - 1]?.push(x(r.ours.peakRss / p.peakRss), x(r.ours.medianMs / p.medianMs));
    rows[rows.length - 1]?.push(x(r.ours.rps / p.rps));
  }
  const fam = [['operations', 'document', 'cold start', 'peak RSS']];
  for (const f of r.family)
    fam.push([
      f.operations.toLocaleString('en-US'),
      `${(f.bytes / 1024).toFixed(0)} KB`,
      ms(f.startMs),
      mb(f.peakRss),
    ]);
  return [
    'Large document: GitHub’s REST description, side by side (start = process start to the first answer)',
    table(rows),
    `ours on the pet store’s GET /v1/categories: ${Math.round(r.petstoreRps).toLocaleString('en-US')} req/s`,
    '',
    'Large document: the generated family (our mock, validation cache off)',
    table(fam),
    '',
    'Targets of issue 22 (ratios within this run)',
    table([['target', 'measured', 'verdict'], ...r.goals.map((g) => [g.goal, g.measured, verdict(g)])]),
    '',
  ].join('\n');
}
