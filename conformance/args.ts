/** The only reader of argv and env for the CLI: argv in, options (or one clear error) out. */
import { REPORTERS, type ReporterName } from '../spec/report';
import type { ConformanceOptions } from './types';

export interface CliOptions {
  run: ConformanceOptions;
  reporter: ReporterName;
  output?: string;
  strict: boolean;
  /** `--record FILE.har`: every exchange as HAR 1.2. */
  record?: string;
  /** `--report NAME=FILE` (repeatable): more reports of the same run, each in its own file. */
  reports: { reporter: ReporterName; file: string }[];
  /** `--min-coverage PERCENT`: exit 1 when fewer documented (operation, status) pairs were observed. */
  minCoverage?: number;
  /** `--coverage FILE…`: coverage files merged with this run's; --min-coverage gates on the union. */
  coverageFiles?: string[];
  /** `--compare URL`: the same cases sent to a second server, the differences reported (conformance/parity). */
  compare?: { target: string; key: string };
}

/** `help` is true for `--help`, `'version'` for `--version`: both answer before anything else is checked. */
export type ParsedArgs =
  | { ok: true; help: true | 'version' }
  | { ok: true; help: false; cli: CliOptions }
  | { ok: false; error: string };

const VALUE_FLAGS = [
  'target',
  'spec',
  'scenarios',
  'include',
  'exclude',
  'rule',
  'reporter',
  'output',
  'timeout',
  'concurrency',
  'key',
  'quota-key',
  'max-wait',
  'seed',
  'record',
  'report',
  'min-coverage',
  'operation',
  'tag',
  'path',
  'max-examples',
  'fuzz-time',
  'failures-dir',
  'max-response-time',
  'require',
  'coverage',
  'compare',
  'compare-key',
  'callbacks-listen',
  'callbacks-wait-ms',
] as const;
const REPEATABLE = new Set([
  'include',
  'exclude',
  'rule',
  'report',
  'operation',
  'tag',
  'path',
  'require',
  'coverage',
]);
/** Flags that repeat without splitting their value at commas (a file name may hold one). */
const WHOLE_VALUES = new Set(['report', 'coverage']);
/** Flags whose value may be left out, and what it then is (`--callbacks-listen` alone: a free port). */
const OPTIONAL_VALUES: Record<string, string> = { 'callbacks-listen': '0' };
/** Flags that take every following argument up to the next flag (`--coverage a.json b.json`). */
const MANY_VALUES = new Set(['coverage']);

type Values = Map<string, string[]>;

/** Parse `--flag value` / `--flag=value`; include, exclude and rule repeat and take comma lists. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedArgs {
  const values: Values = new Map();
  const switches = new Set<string>();
  // --help answers before anything else is checked, wherever it stands (`--diff a b --help` too).
  if (argv.includes('--help') || argv.includes('-h')) return { ok: true, help: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { ok: true, help: true };
    if (arg === '--version' || arg === '-V') return { ok: true, help: 'version' };
    // --low-memory is read before the runner loads (conformance/v8-flags.ts); here it is only accepted.
    if (arg === '--low-memory') continue;
    if (arg === '--strict' || arg === '--read-only' || arg === '--fuzz' || arg === '--replay') {
      switches.add(arg.slice(2));
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const name = m?.[1];
    if (!m || !name || !(VALUE_FLAGS as readonly string[]).includes(name))
      return { ok: false, error: `unknown argument "${arg}" (see --help)` };
    const bare = m[2] === undefined && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--'));
    const value = bare && OPTIONAL_VALUES[name] !== undefined ? OPTIONAL_VALUES[name] : (m[2] ?? argv[++i]);
    if (value === undefined || (m[2] === undefined && value.startsWith('--')))
      return { ok: false, error: `--${name} needs a value` };
    if (values.has(name) && !REPEATABLE.has(name)) return { ok: false, error: `--${name} given twice` };
    values.set(name, [
      ...(values.get(name) ?? []),
      ...(REPEATABLE.has(name) && !WHOLE_VALUES.has(name) ? value.split(',') : [value]),
    ]);
    while (MANY_VALUES.has(name) && argv[i + 1] !== undefined && !argv[i + 1]?.startsWith('--'))
      values.get(name)?.push(argv[++i] ?? '');
  }
  return build(values, switches, env);
}

function build(values: Values, switches: ReadonlySet<string>, env: NodeJS.ProcessEnv): ParsedArgs {
  const one = (name: string) => values.get(name)?.[0];
  const target = one('target');
  if (!target) return { ok: false, error: '--target <base URL ending in /v1> is required' };
  const reporter = one('reporter') ?? 'human';
  if (!(REPORTERS as readonly string[]).includes(reporter))
    return { ok: false, error: `--reporter must be one of ${REPORTERS.join(', ')}` };
  const numbers: Record<string, number | undefined> = {};
  for (const [name, min] of [
    ['timeout', 1],
    ['concurrency', 1],
    ['max-wait', 0],
    ['seed', 0],
    ['max-examples', 1],
    ['fuzz-time', 1],
    ['max-response-time', 1],
    ['callbacks-listen', 0],
    ['callbacks-wait-ms', 1],
  ] as const) {
    const raw = one(name);
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
      return { ok: false, error: `--${name} must be an integer >= ${min}, got "${raw}"` };
    if (name === 'callbacks-listen' && Number(raw) > 65535)
      return { ok: false, error: `--callbacks-listen must be a port 0-65535 (0: a free one), got "${raw}"` };
    numbers[name] = Number(raw);
  }
  // The older names came first and stay part of the CLI contract.
  // No key is a usage error only where the document secures an operation (decided once it is loaded).
  const key = one('key') ?? env.CONFORMANCE_API_KEY ?? '';
  const reports: CliOptions['reports'] = [];
  for (const spec of values.get('report') ?? []) {
    const m = /^([a-z]+)=(.+)$/.exec(spec);
    if (!m?.[1] || !m[2] || !(REPORTERS as readonly string[]).includes(m[1]))
      return {
        ok: false,
        error: `--report needs NAME=FILE with NAME one of ${REPORTERS.join(', ')}, got "${spec}"`,
      };
    reports.push({ reporter: m[1] as ReporterName, file: m[2] });
  }
  const coverage = one('min-coverage');
  if (coverage !== undefined && !(/^\d+(\.\d+)?$/.test(coverage) && Number(coverage) <= 100))
    return { ok: false, error: `--min-coverage is a percentage 0-100, got "${coverage}"` };
  const compare = one('compare');
  if (compare !== undefined && !/^https?:\/\//.test(compare))
    return { ok: false, error: `--compare needs the base URL of a second server, got "${compare}"` };
  const record = one('record');
  if (record !== undefined && !record.endsWith('.har'))
    return { ok: false, error: `--record needs a file name ending in .har, got "${record}"` };
  return {
    ok: true,
    help: false,
    cli: {
      reporter: reporter as ReporterName,
      output: one('output'),
      strict: switches.has('strict'),
      reports,
      ...(record !== undefined ? { record } : {}),
      ...(coverage !== undefined ? { minCoverage: Number(coverage) } : {}),
      ...(values.has('coverage') ? { coverageFiles: values.get('coverage') } : {}),
      ...(compare
        ? { compare: { target: compare, key: one('compare-key') ?? env.CONFORMANCE_COMPARE_KEY ?? key } }
        : {}),
      run: {
        target,
        key,
        quotaKey: one('quota-key') ?? (env.CONFORMANCE_QUOTA_KEY || undefined),
        specFile: one('spec'),
        scenariosDir: one('scenarios'),
        include: values.get('include'),
        exclude: values.get('exclude'),
        rules: values.get('rule'),
        timeoutMs: numbers.timeout,
        concurrency: numbers.concurrency,
        maxWaitMs: numbers['max-wait'],
        seed: numbers.seed,
        operations: values.get('operation'),
        ...(switches.has('fuzz') ? { fuzz: true } : {}),
        ...(switches.has('replay') ? { replay: true } : {}),
        maxExamples: numbers['max-examples'],
        fuzzTimeS: numbers['fuzz-time'],
        failuresDir: one('failures-dir'),
        maxResponseTimeMs: numbers['max-response-time'],
        tags: values.get('tag'),
        paths: values.get('path'),
        ...(values.has('require') ? { require: values.get('require') } : {}),
        ...(switches.has('read-only') ? { readOnly: true } : {}),
        ...(numbers['callbacks-listen'] !== undefined
          ? { callbacksListen: numbers['callbacks-listen'] }
          : {}),
        ...(numbers['callbacks-wait-ms'] !== undefined
          ? { callbacksWaitMs: numbers['callbacks-wait-ms'] }
          : {}),
      },
    },
  };
}
