import { RUNNER_HEAP_FLAGS, RUNNER_V8_FLAGS, runnerV8Settings } from './v8-flags';

describe('runnerV8Settings', () => {
  const run = ['--target', 'http://x'];

  it('keeps V8’s compilers and defaults, the heap’s growth aside, unless the run asks for --low-memory', () => {
    expect(RUNNER_HEAP_FLAGS.some((f) => /opt|maglev|sparkplug|semi-space|size/.test(f))).toBe(false);
    expect(runnerV8Settings([], undefined, run)).toEqual({ kind: 'defaults', flags: [...RUNNER_HEAP_FLAGS] });
    expect(runnerV8Settings(['-r', './x.js', '--enable-source-maps'], '--trace-warnings', run)).toEqual({
      kind: 'defaults',
      flags: [...RUNNER_HEAP_FLAGS],
    });
    expect(runnerV8Settings([], undefined, [...run, '--low-memory'])).toEqual({
      kind: 'low-memory',
      flags: [...RUNNER_V8_FLAGS],
    });
  });

  it('keeps a user’s own heap or compiler settings whole, from NODE_OPTIONS or node’s command line', () => {
    const yours = { kind: 'yours' };
    expect(runnerV8Settings([], '--max-old-space-size=4096', run)).toEqual(yours);
    expect(runnerV8Settings([], '--enable-source-maps --max_semi_space_size=16', run)).toEqual(yours);
    expect(runnerV8Settings(['--max-old-space-size=64'], undefined, [...run, '--low-memory'])).toEqual(yours);
    expect(runnerV8Settings(['--opt'], undefined, run)).toEqual(yours);
    expect(runnerV8Settings(['--no-opt'], undefined, run)).toEqual(yours);
    expect(runnerV8Settings(['--semi-space-growth-factor=2'], undefined, run)).toEqual(yours);
    expect(runnerV8Settings([], '--heap_growing_percent=100', run)).toEqual(yours);
    // Not a tuning flag, though it starts alike.
    expect(runnerV8Settings(['--optional-thing'], undefined, run)).toEqual({
      kind: 'defaults',
      flags: [...RUNNER_HEAP_FLAGS],
    });
  });
});
