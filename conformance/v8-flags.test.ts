import { RUNNER_HEAP_FLAGS, RUNNER_V8_FLAGS, runnerV8Flags } from './v8-flags';

describe('runnerV8Flags', () => {
  it('keeps the compilers on (heap sizing only) unless the run asks for --low-memory', () => {
    expect(runnerV8Flags([], undefined, ['--target', 'http://x'])).toEqual([...RUNNER_HEAP_FLAGS]);
    expect(RUNNER_HEAP_FLAGS.some((f) => /opt$|maglev|sparkplug/.test(f))).toBe(false);
    expect(runnerV8Flags([], undefined, ['--target', 'http://x', '--low-memory'])).toEqual([
      ...RUNNER_V8_FLAGS,
    ]);
  });

  it('sets the runner’s own settings when the user has set none', () => {
    expect(runnerV8Flags([], undefined)).toEqual([...RUNNER_V8_FLAGS]);
    expect(runnerV8Flags(['-r', './x.js', '--enable-source-maps'], '--trace-warnings')).toEqual([
      ...RUNNER_V8_FLAGS,
    ]);
  });

  it('keeps a user’s own heap or compiler settings whole, from NODE_OPTIONS or node’s command line', () => {
    expect(runnerV8Flags([], '--max-old-space-size=4096')).toEqual([]);
    expect(runnerV8Flags([], '--enable-source-maps --max_semi_space_size=16')).toEqual([]);
    expect(runnerV8Flags(['--max-old-space-size=64'], undefined)).toEqual([]);
    expect(runnerV8Flags(['--opt'], undefined)).toEqual([]);
    expect(runnerV8Flags(['--no-opt'], undefined)).toEqual([]);
    expect(runnerV8Flags(['--semi-space-growth-factor=2'], undefined)).toEqual([]);
    // Not a tuning flag, though it starts alike.
    expect(runnerV8Flags(['--optional-thing'], undefined)).toEqual([...RUNNER_V8_FLAGS]);
  });
});
