/**
 * The only reader of argv and env. Turns them into a checked, frozen MockConfig, or an error value.
 * Every "not shown" detail of the interface that the mock decides is a setting here, with its default.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, projectRoot } from '../../spec/paths';
import { maskUrl } from '../core/redact';
import { parseTrustList } from './trust-proxy';
import { ENGINE_DEFAULTS, petstorePolicy, type MockConfig, type ValidationPolicy } from '../core/settings';

export type { MockConfig, ValidationPolicy };

export const DEFAULT_KEYS_FILE = path.join(projectRoot(), 'fixtures', 'keys.json');
export const DEFAULT_SEED_FILE = path.join(projectRoot(), 'fixtures', 'seed.json');

export const DEFAULTS: Readonly<MockConfig> = Object.freeze({
  ...ENGINE_DEFAULTS,
  specPath: DEFAULT_SPEC_PATH,
  keysFile: DEFAULT_KEYS_FILE,
  seedFile: DEFAULT_SEED_FILE,
});

/**
 * The file defaults of the Node layer (the engine's own defaults have no files). The default seed holds the pet
 * store's categories: for another document (`specPath`) the store starts empty.
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
  keys: { type: 'string' },
  seed: { type: 'string' },
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
} as const;

export const HELP = `Usage: petstore-mock [options]     (in a clone of the repository: npm start -- [options])

The pet store mock server: spec-driven, stateful, with bearer-key auth and per-plan rate limits.

  --host HOST                  listen address (default 127.0.0.1)
  --port N, -p N               listen port, 0 for any free port (default 4010; env PORT)
  --spec FILE                  OpenAPI document (default spec/openapi.yaml, the copy in this package)
  --keys FILE                  keys file (default fixtures/keys.json; env MOCK_KEYS_FILE)
  --seed FILE | --no-seed      seed records by resource (default fixtures/seed.json for the pet store, empty for
                               another --spec; --seed none = empty)
  --quiet, -q                  no request log lines
  --store memory|redis         where records and counters live (default memory)
  --redis-url URL              Redis for --store redis (env REDIS_URL; default redis://127.0.0.1:6379)
  --cors-origins LIST          comma-separated allowed origins, * for any, none for no CORS (default *)
  --max-body-bytes N           larger bodies get 413 (default 1048576)
  --allow-unknown-fields       accept fields a request schema does not name (default: 400)
  --allow-empty-name           accept name "" (default: 400)
  --max-name-length N          longest name, 0 = no limit (default 200)
  --max-description-length N   longest description, 0 = no limit (default 2000)
  --ban-threshold N            429s within a minute that ban a key, 0 = never (default 30)
  --ban-seconds N              length of a ban (default 300)
  --sunset DATE                Sunset date of the deprecated pet lookup (not published; none by default)
  --successor-link URL         Link rel="successor-version" of the deprecated pet lookup
  --no-admin                   turn off /_mock/state and /_mock/reset (health stays)
  --admin-token TOKEN          16+ characters (env MOCK_ADMIN_TOKEN): state, reset and inspector data need
                               "Authorization: Bearer TOKEN"; without it, on a --host other than loopback the
                               admin routes and the inspector are off
  --no-inspector               turn off the inspector page /_mock/inspector (the API reference stays)
  --watch                      reload spec, keys and seed files when they change (stored state is kept)
  --example-engine spec|prism  who answers operations that are no resource: the document's examples, else
                               values generated from its schemas (default), or Prism 5.12
  --max-records N              most records one resource holds; more is a 409 record_limit (default 10000)
  --no-ratelimit-fields        no IETF RateLimit / RateLimit-Policy fields (X-RateLimit-* stay)
  --base-path PATH             serve under PATH instead of the first server URL's path
  --trust-proxy LIST           comma-separated proxies (IPs, CIDRs, loopback) whose X-Forwarded-For names the
                               client, for per-address limits behind a balancer (default: none)
  --allow-short-keys           accept keys shorter than 16 characters from --keys (the demo keys always are)
  --version, -V                the package version
  --help, -h                   this text
`;

export type ConfigResult =
  { ok: true; config: MockConfig } | { ok: false; error: string } | { ok: 'help' } | { ok: 'version' };

/** Parse argv and env into a frozen config, or an error naming the bad option. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ConfigResult {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
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
  if (store !== 'memory' && store !== 'redis') errors.push(`--store must be memory or redis, got "${store}"`);
  const exampleEngine = values['example-engine'] ?? DEFAULTS.exampleEngine;
  if (exampleEngine !== 'spec' && exampleEngine !== 'prism') {
    errors.push(`--example-engine must be spec or prism, got "${exampleEngine}"`);
  }
  const seedArg = values['no-seed'] ? 'none' : values.seed;
  const specPath = path.resolve(values.spec ?? DEFAULTS.specPath);
  // The default seed holds the pet store's categories: another document starts empty unless --seed names one.
  const defaultSeed = specPath === path.resolve(DEFAULTS.specPath) ? DEFAULTS.seedFile : null;
  const cors = values['cors-origins'] ?? DEFAULTS.corsOrigins.join(',');
  const config: MockConfig = {
    host: values.host ?? DEFAULTS.host,
    port: int('port', values.port ?? env.PORT, DEFAULTS.port, 0, 65535),
    specPath,
    keysFile: path.resolve(values.keys ?? env.MOCK_KEYS_FILE ?? DEFAULTS.keysFile),
    seedFile: seedArg === 'none' ? null : seedArg ? path.resolve(seedArg) : (defaultSeed ?? null),
    quiet: values.quiet ?? false,
    store: store === 'redis' ? 'redis' : 'memory',
    redisUrl: values['redis-url'] ?? env.REDIS_URL ?? DEFAULTS.redisUrl,
    corsOrigins:
      cors === 'none'
        ? []
        : cors
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
    maxBodyBytes: int('max-body-bytes', values['max-body-bytes'], DEFAULTS.maxBodyBytes, 1),
    policy: petstorePolicy(
      values['allow-unknown-fields'] ?? false,
      values['allow-empty-name'] ?? false,
      int('max-name-length', values['max-name-length'], 200, 0),
      int('max-description-length', values['max-description-length'], 2000, 0),
    ),
    banThreshold: int('ban-threshold', values['ban-threshold'], DEFAULTS.banThreshold, 0),
    banSeconds: int('ban-seconds', values['ban-seconds'], DEFAULTS.banSeconds, 1),
    sunset: values.sunset ?? null,
    successorLink: values['successor-link'] ?? null,
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
    plans: DEFAULTS.plans,
    trustProxy: (values['trust-proxy'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    allowShortKeys: values['allow-short-keys'] ?? false,
  };
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
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return { ok: true, config: Object.freeze(config) };
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
