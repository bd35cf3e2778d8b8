import { withLegacyNames } from '../../bin/legacy-env';
import { parseArgs } from '../args';

const T = ['--target', 'http://127.0.0.1:1/v1'];

describe('parseArgs', () => {
  it('parses without a key (a document without security needs none; the run decides once it is loaded)', () => {
    const parsed = parseArgs([...T], {});
    expect(parsed.ok && !parsed.help && parsed.cli.run.key).toBe('');
  });

  it('takes the key from --key, else from CONFORMANCE_API_KEY', () => {
    const fromFlag = parseArgs([...T, '--key', 'k1'], { CONFORMANCE_API_KEY: 'k2' });
    const fromEnv = parseArgs(T, { CONFORMANCE_API_KEY: 'k2', CONFORMANCE_QUOTA_KEY: 'q' });
    expect(fromFlag.ok && !fromFlag.help && fromFlag.cli.run.key).toBe('k1');
    expect(fromEnv.ok && !fromEnv.help && fromEnv.cli.run).toMatchObject({ key: 'k2', quotaKey: 'q' });
  });

  it("reads the engine's names only; the pet store's own (PETSTORE_*) are the package entry points' to map", () => {
    const legacy = parseArgs(T, { PETSTORE_API_KEY: 'old' });
    expect(legacy.ok && !legacy.help && legacy.cli.run.key).toBe('');
    const mapped = parseArgs(T, withLegacyNames({ PETSTORE_API_KEY: 'old', PETSTORE_QUOTA_KEY: 'oq' }));
    expect(mapped.ok && !mapped.help && mapped.cli.run).toMatchObject({ key: 'old', quotaKey: 'oq' });
    const both = parseArgs(T, withLegacyNames({ CONFORMANCE_API_KEY: 'new', PETSTORE_API_KEY: 'old' }));
    expect(both.ok && !both.help && both.cli.run.key).toBe('new');
  });

  it('reads every option, with repeatable and comma-separated filters', () => {
    const parsed = parseArgs(
      [
        ...T,
        '--key=k',
        '--spec',
        's.yaml',
        '--scenarios',
        'dir',
        '--include',
        'quota',
        '--exclude',
        'auth,ops',
        '--rule',
        'a.b',
        '--rule',
        'c.d',
        '--reporter',
        'junit',
        '--output',
        'out.xml',
        '--timeout',
        '500',
        '--concurrency',
        '3',
        '--quota-key',
        'q',
        '--max-wait',
        '0',
        '--seed',
        '7',
        '--strict',
      ],
      {},
    );
    expect(parsed).toEqual({
      ok: true,
      help: false,
      cli: {
        reporter: 'junit',
        output: 'out.xml',
        strict: true,
        reports: [],
        run: {
          target: 'http://127.0.0.1:1/v1',
          key: 'k',
          quotaKey: 'q',
          specFile: 's.yaml',
          scenariosDir: 'dir',
          include: ['quota'],
          exclude: ['auth', 'ops'],
          rules: ['a.b', 'c.d'],
          timeoutMs: 500,
          concurrency: 3,
          maxWaitMs: 0,
          seed: 7,
        },
      },
    });
  });

  it.each([
    [['--key', 'k'], /--target/],
    [[...T, '--key', 'k', '--reporter', 'xml'], /--reporter must be one of/],
    [[...T, '--key', 'k', '--timeout', 'soon'], /--timeout must be an integer/],
    [[...T, '--key', 'k', '--concurrency', '0'], /--concurrency must be an integer >= 1/],
    [[...T, '--key', 'k', '--bogus'], /unknown argument "--bogus"/],
    [[...T, '--key'], /--key needs a value/],
  ])('refuses %j with one clear error', (argv, message) => {
    const parsed = parseArgs(argv, {});
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });

  it('reads --read-only and --record FILE.har', () => {
    const parsed = parseArgs(
      [...T, '--key', 'k', '--read-only', '--record', 'run.har', '--scenarios', 'none'],
      {},
    );
    expect(parsed.ok && !parsed.help && parsed.cli).toMatchObject({
      record: 'run.har',
      run: { readOnly: true, scenariosDir: 'none' },
    });
    expect(parseArgs([...T, '--key', 'k', '--record', 'run.json'], {})).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--record needs a file name ending in \.har/),
    });
  });

  it('answers --help and --version before anything else', () => {
    expect(parseArgs(['--help'], {})).toEqual({ ok: true, help: true });
    expect(parseArgs(['--version'], {})).toEqual({ ok: true, help: 'version' });
    expect(parseArgs(['-V', '--target'], {})).toEqual({ ok: true, help: 'version' });
  });

  it('--report NAME=FILE repeats, keeps commas in file names, and refuses unknown reporters', () => {
    const base = ['--target', 'http://127.0.0.1:1/v1', '--key', 'k'];
    const parsed = parseArgs([...base, '--report', 'junit=out/a,b.xml', '--report=html=out/report.html'], {});
    expect(parsed.ok && !parsed.help && parsed.cli.reports).toEqual([
      { reporter: 'junit', file: 'out/a,b.xml' },
      { reporter: 'html', file: 'out/report.html' },
    ]);
    for (const bad of ['pdf=x.pdf', 'junit=', 'junit'])
      expect(parseArgs([...base, '--report', bad], {})).toEqual({
        ok: false,
        error: expect.stringMatching(/--report needs NAME=FILE/),
      });
  });

  it.each<[string[], object]>([
    [['--callbacks-listen'], { callbacksListen: 0 }],
    [['--callbacks-listen', '--seed', '1'], { callbacksListen: 0, seed: 1 }],
    [['--callbacks-listen', '0'], { callbacksListen: 0 }],
    [
      ['--callbacks-listen=4999', '--callbacks-wait-ms', '800'],
      { callbacksListen: 4999, callbacksWaitMs: 800 },
    ],
  ])('--callbacks-listen %j: a port, 0 or no value (a free port)', (args, expected) => {
    const parsed = parseArgs([...T, '--key', 'k', ...args], {});
    expect(parsed.ok && !parsed.help && parsed.cli.run).toMatchObject(expected);
  });

  it.each([
    [['--callbacks-listen', '70000'], /--callbacks-listen must be a port 0-65535/],
    [['--callbacks-listen', 'x'], /--callbacks-listen must be an integer/],
    [['--callbacks-wait-ms', '0'], /--callbacks-wait-ms must be an integer >= 1/],
  ])('refuses %j', (args, error) => {
    expect(parseArgs([...T, '--key', 'k', ...args], {})).toEqual({
      ok: false,
      error: expect.stringMatching(error),
    });
  });
});
