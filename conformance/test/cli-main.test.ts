import fs from 'node:fs';
import path from 'node:path';
import { exitCodeOf, main, progressLine, wantsColor } from '../cli';
import type { Report, RuleResult } from '../types';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((s) => out.push(String(s)) > 0);
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((s) => err.push(String(s)) > 0);
  return {
    out: () => out.join(''),
    err: () => err.join(''),
    restore: () => {
      o.mockRestore();
      e.mockRestore();
    },
  };
}

describe('main', () => {
  it.each([
    [['--key', 'k'], /--target/],
    [['--target', 'http://127.0.0.1:1/v2', '--key', 'k'], /must end in \/v1/],
    [['--target', 'not a url', '--key', 'k'], /is not a URL/],
    [
      ['--target', 'http://127.0.0.1:1/v1', '--key', 'k', '--spec', 'fixtures/specs/bad-ref.yaml'],
      /invalid OpenAPI/,
    ],
    [
      ['--target', 'http://127.0.0.1:1/v1', '--key', 'k', '--scenarios', '/no/such/dir'],
      /cannot read scenario/,
    ],
    [['--target', 'http://127.0.0.1:1/v1', '--key', 'k', '--include', 'nope'], /unknown tag "nope"/],
  ])('exits 2 with one line for %j', async (argv, message) => {
    const io = capture();
    try {
      expect(await main(argv, {})).toBe(2);
    } finally {
      io.restore();
    }
    expect(io.err().trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('prints help with every option and rule', async () => {
    const io = capture();
    try {
      expect(await main(['--help'], {})).toBe(0);
    } finally {
      io.restore();
    }
    for (const flag of ['--target', '--quota-key', '--max-wait', '--strict', '--seed', 'quota.burst-exact'])
      expect(io.out()).toContain(flag);
    expect(io.out()).toMatch(/^Usage: petstore-conformance --target/);
  });

  it('prints the package version with --version', async () => {
    const io = capture();
    try {
      expect(await main(['--version'], {})).toBe(0);
    } finally {
      io.restore();
    }
    const { version } = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(io.out()).toBe(`${version}\n`);
  });
});

describe('exitCodeOf', () => {
  const rule = (kind: 'contract' | 'assumption', status: 'pass' | 'fail' | 'skip'): RuleResult => ({
    id: `${kind}.${status}`,
    title: '',
    kind,
    source: '§1',
    status,
    evidence: [],
  });
  const throttled = { request: null, response: null, problem: 'rate-limited: unexpected 429' };
  const readOnly = { request: null, response: null, problem: '--read-only: POST is not sent' };
  const report = (...rules: RuleResult[]): Report => ({
    target: 'x',
    startedAt: '',
    durationMs: 0,
    summary: { pass: 0, fail: 0, skip: 0 },
    rules,
    coverage: [],
  });

  it.each([
    [[rule('contract', 'pass'), rule('contract', 'skip')], false, 0],
    [[rule('contract', 'fail')], false, 1],
    [[rule('assumption', 'fail')], false, 0],
    [[rule('assumption', 'fail')], true, 1],
    [[rule('contract', 'pass'), { ...rule('contract', 'skip'), evidence: [throttled] }], false, 2],
    [[rule('contract', 'fail'), { ...rule('contract', 'skip'), evidence: [throttled] }], false, 1],
    [[rule('contract', 'pass'), { ...rule('assumption', 'skip'), evidence: [readOnly] }], false, 0],
    [[rule('contract', 'skip'), rule('assumption', 'skip'), rule('contract', 'pass')], false, 2],
  ])('%j (strict %s) -> %i', (rules, strict, code) => {
    expect(exitCodeOf(report(...rules), strict)).toBe(code);
  });
});

describe('progressLine (a terminal only: stderr that is not a TTY gets none)', () => {
  it('says checks done / total, failures so far and the time elapsed, rewritten in place', () => {
    const event = { type: 'check' as const, name: 'crud.r7', done: 3, total: 10, failed: 1 };
    expect(progressLine(event, 65_000)).toBe('\r\u001b[K[3/10] 1 failed, 1:05 crud.r7');
    expect(progressLine({ ...event, done: 10 }, 1_000)).toMatch(/\[10\/10\] 1 failed, 0:01 crud\.r7\n$/);
  });
});

describe('wantsColor: NO_COLOR and FORCE_COLOR (no-color.org; FORCE_COLOR wins, as in Node)', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
  ])('%j on a terminal %s -> %s', (env, tty, color) => {
    expect(wantsColor(env, tty)).toBe(color);
  });
});
