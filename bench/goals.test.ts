import { judgeGoals, verdict, type GoalInput } from './goals';

const base: GoalInput = {
  rps: {
    list: { ours: 7000, ceiling: 10000, expectedShare: 1 },
    create: { ours: 5000, ceiling: 10000, expectedShare: 1 },
    unauthorized: { ours: 5999, ceiling: 10000, expectedShare: 1 },
    'not-found': { ours: 6000, ceiling: 10000, expectedShare: 1 },
    'by-id-10': { ours: 8000, ceiling: 10000, expectedShare: 1 },
    'by-id-10k': { ours: 7300, expectedShare: 1 },
  },
  startupDistMs: 250,
  startupNpmStartMs: 900,
  peakRssBytes: 100 * 1024 * 1024,
  fetchAdapterRps: null,
  skipped: {},
};

describe('judgeGoals: issue 14 targets from one run', () => {
  it('holds each target at its threshold and misses it just below', () => {
    const held = judgeGoals(base).map(verdict);
    expect(held).toEqual(['held', 'held', 'MISSED', 'held', 'held', 'held', 'held', 'held', 'not measured']);
    const slower = { ...base.rps, 'by-id-10k': { ours: 7100, expectedShare: 1 } };
    expect(verdict(judgeGoals({ ...base, rps: slower })[4] ?? { goal: '', measured: '', held: null })).toBe(
      'MISSED',
    );
  });

  it('misses a ratio whose statuses were not the expected ones (429s in a 401 run)', () => {
    const input = {
      ...base,
      rps: { ...base.rps, unauthorized: { ours: 9000, ceiling: 10000, expectedShare: 0.9 } },
    };
    const goal = judgeGoals(input)[2];
    expect(goal?.held).toBe(false);
    expect(goal?.measured).toMatch(/90.0% expected statuses/);
  });

  it('reports a skipped workload as not measured, with the reason', () => {
    const rest = Object.fromEntries(Object.entries(base.rps).filter(([name]) => !name.startsWith('by-id')));
    const goal = judgeGoals({ ...base, rps: rest, skipped: { 'by-id-10': 'no item routes' } })[4];
    expect(goal).toMatchObject({ held: null, measured: 'no item routes' });
  });

  it('turns a slow start and a large RSS into misses', () => {
    const slow = { ...base, startupDistMs: 310, startupNpmStartMs: 1200, peakRssBytes: 130 * 1024 * 1024 };
    expect(judgeGoals(slow).slice(5, 8).map(verdict)).toEqual(['MISSED', 'MISSED', 'MISSED']);
  });
});
