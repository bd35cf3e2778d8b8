/**
 * The only reader of argv and env. Turns them into a checked, frozen MockConfig, or an error value.
 * Every "not shown" detail of the interface that the mock decides is a setting here, with its default.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, projectRoot } from '../../spec/paths';
import { maskUrl } from '../../spec/redact';
import { parseTrustList } from './trust-proxy';
import {
  applySettings,
  ENGINE_DEFAULTS,
  SHIPPED_SETTINGS,
  type DocumentSettings,
  type SettingsFlags,
  type MockConfig,
  type ValidationPolicy,
} from '../core/settings';
import { readSettingsFile } from './settings-file';
import { faultRateProblem, parseLatency } from '../core/chaos';
import { callbackHostsProblem, targetProblem } from './callbacks';
import { STORE_NAMES } from './stores/index';

export { HELP } from './help';

export type { MockConfig, ValidationPolicy };

export const DEFAULT_KEYS_FILE = path.join(projectRoot(), 'fixtures', 'keys.json');
export const DEFAULT_SEED_FILE = path.join(projectRoot(), 'fixtures', 'seed.json');
/** The default document's settings, shipped beside it. */
export const DEFAULT_SETTINGS_FILE = path.join(projectRoot(), 'spec', 'openapi.settings.json');

export const DEFAULTS: Readonly<MockConfig> = Object.freeze({
  ...ENGINE_DEFAULTS,
  specPath: DEFAULT_SPEC_PATH,
  keysFile: DEFAULT_KEYS_FILE,
  seedFile: DEFAULT_SEED_FILE,
});

/**
 * The file defaults of the Node layer (the engine's own defaults have no files). The default seed holds the default
 * document's records: for another document (`specPath`) the store starts empty.
 */
export function nodeDefaults(specPath?: string): Pick<MockConfig, 'specPath' | 'keysFile' | 'seedFile'> {
  const own = specPath === undefined || path.resolve(specPath) === path.resolve(DEFAULT_SPEC_PATH);
  return {
    specPath: DEFAULT_SPEC_PATH,
    keysFile: DEFAULT_KEYS_FILE,
    seedFile: own ? DEFAULT_SEED_FILE : null,
  };
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  host: { type: 'string' },
  port: { type: 'string', short: 'p' },
  spec: { type: 'string' },
  settings: { type: 'string' },
  keys: { type: 'string' },
  seed: { type: 'string' },
  'seed-har': { type: 'string', multiple: true },
  'no-seed': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  store: { type: 'string' },
  'redis-url': { type: 'string' },
  'cors-origins': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'allow-unknown-fields': { type: 'boolean' },
  'allow-empty-name': { type: 'boolean' },
  'max-name-length': { type: 'string' },
  'max-description-length': { type: 'string' },
  'ban-threshold': { type: 'string' },
  'ban-seconds': { type: 'string' },
  sunset: { type: 'string' },
  'successor-link': { type: 'string' },
  'no-admin': { type: 'boolean' },
  'admin-token': { type: 'string' },
  'no-inspector': { type: 'boolean' },
  watch: { type: 'boolean' },
  'example-engine': { type: 'string' },
  'max-records': { type: 'string' },
  'no-ratelimit-fields': { type: 'boolean' },
  'base-path': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'allow-short-keys': { type: 'boolean' },
  'drain-ms': { type: 'string' },
  'rate-limit': { type: 'string' },
  latency: { type: 'string' },
  faults: { type: 'string' },
  'random-seed': { type: 'string' },
  'callback-hosts': { type: 'string' },
  'callback-timeout-ms': { type: 'string' },
  webhooks: { type: 'string' },
} as const;

/** `--drain-ms`: how long a graceful stop lets requests in flight finish (SIGTERM/SIGINT). */
export const DEFAULT_DRAIN_MS = 10_000;

export type ConfigResult =
  /** `drainMs`: the process's own setting (the engine never stops), not part of MockConfig. */
  | { ok: true; config: MockConfig; drainMs: number; rateLimit: boolean }
  | { ok: false; error: string }
  | { ok: 'help' }
  | { ok: 'version' };

/** `--flag a b c` as `--flag a --flag b --flag c`: a flag that takes every following argument up to the next flag. */
function manyValues(argv: readonly string[], flag: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    out.push(argv[i] ?? '');
    if (argv[i] !== flag) continue;
    if (argv[i + 1] !== undefined) out.push(argv[++i] ?? '');
    while (argv[i + 1] !== undefined && !argv[i + 1]?.startsWith('-')) out.push(flag, argv[++i] ?? '');
  }
  return out;
}

/** Parse argv and env into a frozen config, or an error naming the bad option. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ConfigResult {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    values = parseArgs({
      args: manyValues(argv, '--seed-har'),
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  if (values.help) return { ok: 'help' };
  if (values.version) return { ok: 'version' };
  const errors: string[] = [];
  const int = (
    name: string,
    raw: string | undefined,
    fallback: number,
    min: number,
    max = Number.MAX_SAFE_INTEGER,
  ) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || n < min || n > max)
      errors.push(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  const store = values.store ?? DEFAULTS.store;
  if (!STORE_NAMES.includes(store))
    errors.push(`--store must be ${STORE_NAMES.join(' or ')}, got "${store}"`);
  const exampleEngine = values['example-engine'] ?? DEFAULTS.exampleEngine;
  if (exampleEngine !== 'spec' && exampleEngine !== 'prism') {
    errors.push(`--example-engine must be spec or prism, got "${exampleEngine}"`);
  }
  const optionalInt = (name: string, raw: string | undefined) =>
    raw === undefined ? undefined : int(name, raw, 0, 0);
  const settingsArg = values.settings ?? env.MOCK_SETTINGS_FILE;
  const ownSpec = path.resolve(values.spec ?? DEFAULTS.specPath) === path.resolve(DEFAULTS.specPath);
  const settings = settingsOf(settingsArg, errors, ownSpec);
  const flags: SettingsFlags = Object.fromEntries(
    Object.entries({
      allowUnknownFields: values['allow-unknown-fields'],
      allowEmptyName: values['allow-empty-name'],
      maxName: optionalInt('max-name-length', values['max-name-length']),
      maxDescription: optionalInt('max-description-length', values['max-description-length']),
      sunset: values.sunset,
      successorLink: values['successor-link'],
      latency: values.latency,
      faults: faultsOf(values.faults, errors),
      webhookUrl: values.webhooks,
      // A secret from the environment only: a command line is visible to every user of the machine.
      webhookSecret: env.MOCK_WEBHOOK_SECRET || undefined,
    }).filter(([, v]) => v !== undefined),
  );
  const seedArg = values['no-seed'] ? 'none' : values.seed;
  const specPath = path.resolve(values.spec ?? DEFAULTS.specPath);
  // The default seed holds the default document's records: another document starts empty unless --seed names one.
  const defaultSeed = specPath === path.resolve(DEFAULTS.specPath) ? DEFAULTS.seedFile : null;
  const cors = values['cors-origins'] ?? DEFAULTS.corsOrigins.join(',');
  const config: MockConfig = {
    host: values.host ?? DEFAULTS.host,
    port: int('port', values.port ?? env.PORT, DEFAULTS.port, 0, 65535),
    specPath,
    keysFile: path.resolve(values.keys ?? env.MOCK_KEYS_FILE ?? DEFAULTS.keysFile),
    seedFile: seedArg === 'none' ? null : seedArg ? path.resolve(seedArg) : (defaultSeed ?? null),
    ...(values['seed-har'] ? { seedHarFiles: values['seed-har'].map((f) => path.resolve(f)) } : {}),
    quiet: values.quiet ?? false,
    store,
    redisUrl: values['redis-url'] ?? env.REDIS_URL ?? DEFAULTS.redisUrl,
    corsOrigins:
      cors === 'none'
        ? []
        : cors
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
    maxBodyBytes: int('max-body-bytes', values['max-body-bytes'], DEFAULTS.maxBodyBytes, 1),
    ...applySettings(settings, flags, DEFAULTS.plans),
    banThreshold: int('ban-threshold', values['ban-threshold'], DEFAULTS.banThreshold, 0),
    banSeconds: int('ban-seconds', values['ban-seconds'], DEFAULTS.banSeconds, 1),
    admin: !values['no-admin'],
    adminToken: values['admin-token'] ?? env.MOCK_ADMIN_TOKEN ?? null,
    inspector: !values['no-inspector'],
    watch: values.watch ?? false,
    exampleEngine: exampleEngine === 'prism' ? 'prism' : 'spec',
    headersTimeoutMs: DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: DEFAULTS.requestTimeoutMs,
    maxHeaderBytes: DEFAULTS.maxHeaderBytes,
    maxRecords: int('max-records', values['max-records'], DEFAULTS.maxRecords, 1),
    rateLimitFields: !values['no-ratelimit-fields'],
    basePath: values['base-path'] ?? null,
    trustProxy: (values['trust-proxy'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    allowShortKeys: values['allow-short-keys'] ?? false,
    settingsFile: settingsArg === undefined || settingsArg === 'none' ? null : path.resolve(settingsArg),
    settingsFlags: flags,
    randomSeed: int('random-seed', values['random-seed'], DEFAULTS.randomSeed, 0, 2 ** 32 - 1),
    callbackHosts: (values['callback-hosts'] ?? DEFAULTS.callbackHosts.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    callbackTimeoutMs: int(
      'callback-timeout-ms',
      values['callback-timeout-ms'],
      DEFAULTS.callbackTimeoutMs,
      1,
      60_000,
    ),
  };
  const hostsProblem = callbackHostsProblem(config.callbackHosts);
  if (hostsProblem) errors.push(hostsProblem);
  // The webhooks' target is the operator's, and still bounded by --callback-hosts: said at start, not per send.
  for (const [where, url] of [
    ['--webhooks', config.webhookUrl],
    ...Object.entries(config.webhooks).map(([name, w]) => [`webhooks.${name}.url`, w.url]),
  ] as const) {
    const problem = url && !hostsProblem ? targetProblem(url, config.callbackHosts) : undefined;
    if (problem) errors.push(`${where}: ${maskUrl(problem)}`);
  }
  if (config.latency !== null) {
    const latency = parseLatency(config.latency);
    if ('problem' in latency) errors.push(`--${latency.problem}`);
  }
  const trust = parseTrustList(config.trustProxy);
  if (!trust.ok) errors.push(trust.error);
  // Never echoed: a mistyped token is still a secret.
  if (config.adminToken !== null && config.adminToken.length < 16)
    errors.push('--admin-token (or MOCK_ADMIN_TOKEN) must be at least 16 characters');
  if (config.store === 'redis') {
    const problem = redisUrlProblem(config.redisUrl);
    // An unparseable value may be anything, a bare password included: it is not echoed at all.
    if (problem)
      errors.push(
        `--redis-url ${problem}${URL.canParse(config.redisUrl) ? `, got "${maskUrl(config.redisUrl)}"` : ''}`,
      );
  }
  if (config.sunset !== null && Number.isNaN(Date.parse(config.sunset)))
    errors.push(`--sunset must be a date, got "${config.sunset}"`);
  const drainMs = int('drain-ms', values['drain-ms'], DEFAULT_DRAIN_MS, 0, 3_600_000);
  const rateLimit = values['rate-limit'] ?? env.MOCK_RATE_LIMIT ?? 'on';
  if (rateLimit !== 'on' && rateLimit !== 'off')
    errors.push(`--rate-limit must be on or off, got "${rateLimit}"`);
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return { ok: true, config: Object.freeze(config), drainMs, rateLimit: rateLimit === 'on' };
}

/** `--faults RATE`: a share from 0 to 1 (or a percentage, `5%`); a bad value adds an error. */
function faultsOf(raw: string | undefined, errors: string[]): number | undefined {
  if (raw === undefined) return undefined;
  const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(raw);
  const rate = pct ? Number(pct[1]) / 100 : /^\s*\d*\.?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  const problem = faultRateProblem(rate);
  if (problem) errors.push(`--faults must be a share from 0 to 1 (or a percentage), got "${raw}"`);
  return problem ? undefined : rate;
}

/**
 * The settings `--settings` names: the shipped file by default, none for `none`; a bad file adds an error. The
 * shipped file's refusals of unknown fields and of a sent id are the pet store's decisions (§2): another
 * document's schemas decide for themselves (`additionalProperties`), as Prism's validator reads them, and a
 * readOnly property a client sends back (an SDK's update of the object it read) is dropped, never stored, as
 * servers do and Prism accepts; unless a settings file says otherwise.
 */
export const OTHER_DOCUMENT_SETTINGS: DocumentSettings = {
  ...SHIPPED_SETTINGS,
  allowUnknownFields: true,
  readOnlyProperties: 'ignore',
};

function settingsOf(arg: string | undefined, errors: string[], ownSpec: boolean): DocumentSettings {
  if (arg === 'none') return {};
  if (arg === undefined) return ownSpec ? SHIPPED_SETTINGS : OTHER_DOCUMENT_SETTINGS;
  const read = readSettingsFile(path.resolve(arg));
  if (!read.ok) errors.push(read.error);
  return read.ok ? read.settings : {};
}

/** Pure: why `url` is no Redis URL ioredis can use, or undefined. Never echoes the URL (the caller masks it). */
function redisUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL (redis://[[user]:password@]host:port[/db])';
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    return 'must start with redis:// or rediss://';
  if (!parsed.hostname) return 'names no host';
  if (parsed.pathname.length > 1 && !/^\/\d+$/.test(parsed.pathname))
    return 'may name only a database number';
  return undefined;
}

/** Defaults with `overrides` applied, for library use and tests. */
export function configWith(overrides: Partial<MockConfig> = {}): MockConfig {
  return Object.freeze({ ...DEFAULTS, ...overrides, policy: { ...DEFAULTS.policy, ...overrides.policy } });
}
