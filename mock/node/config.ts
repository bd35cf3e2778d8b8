/**
 * The only reader of argv and env. Turns them into a checked, frozen MockConfig, or an error value.
 * Every "not shown" detail of the interface that the mock decides is a setting here, with its default.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, projectRoot } from '../../spec/paths';
import { parseTrustList } from './trust-proxy';

export interface ValidationPolicy {
  /** Fields NewCategory does not name: rejected (400) unless allowed. Unpublished (§2), so mock policy. */
  allowUnknownFields: boolean;
  /** An empty `name`: rejected unless allowed. */
  allowEmptyName: boolean;
  /** Length limits of name and description are not published (§2): the mock's own, 0 = none. */
  maxNameLength: number;
  maxDescriptionLength: number;
}

export interface MockConfig {
  host: string;
  port: number;
  specPath: string;
  keysFile: string;
  /** Seed categories file, or null for an empty store. */
  seedFile: string | null;
  quiet: boolean;
  store: 'memory' | 'redis';
  redisUrl: string;
  /** CORS origins allowed; `*` allows any (the local default). Empty: no CORS headers. */
  corsOrigins: string[];
  maxBodyBytes: number;
  policy: ValidationPolicy;
  /** §8.3: rejected requests within a minute that ban a key, and for how long. 0 disables the ban. */
  banThreshold: number;
  banSeconds: number;
  /** §9.3: the sunset date of the deprecated pet lookup is not published; set it here (HTTP-date or ISO). */
  sunset: string | null;
  successorLink: string | null;
  /** Admin routes outside /v1 (`/_mock/…`), and an optional token that guards them. */
  admin: boolean;
  adminToken: string | null;
  /** The inspector page (`/_mock/inspector`): recent requests, categories, quotas. Off with --no-inspector. */
  inspector: boolean;
  watch: boolean;
  /** Who answers pets and orders (payloads not published): the spec's examples, or Prism. */
  exampleEngine: 'spec' | 'prism';
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxHeaderBytes: number;
  /** Peers (IPs, CIDRs, `loopback`…) whose X-Forwarded-For names the client (issue 13). Empty: none. */
  trustProxy: string[];
}

export const DEFAULT_KEYS_FILE = path.join(projectRoot(), 'fixtures', 'keys.json');
export const DEFAULT_SEED_FILE = path.join(projectRoot(), 'fixtures', 'seed.json');

export const DEFAULTS: Readonly<MockConfig> = Object.freeze({
  host: '127.0.0.1',
  port: 4010,
  specPath: DEFAULT_SPEC_PATH,
  keysFile: DEFAULT_KEYS_FILE,
  seedFile: DEFAULT_SEED_FILE,
  quiet: false,
  store: 'memory',
  redisUrl: 'redis://127.0.0.1:6379',
  corsOrigins: ['*'],
  maxBodyBytes: 1024 * 1024,
  policy: Object.freeze({
    allowUnknownFields: false,
    allowEmptyName: false,
    maxNameLength: 200,
    maxDescriptionLength: 2000,
  }),
  banThreshold: 30,
  banSeconds: 300,
  sunset: null,
  successorLink: null,
  admin: true,
  adminToken: null,
  inspector: true,
  watch: false,
  exampleEngine: 'spec',
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxHeaderBytes: 16 * 1024,
  trustProxy: [],
});

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
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
  'trust-proxy': { type: 'string' },
} as const;

export const HELP = `Usage: npm start -- [options]     (or: node dist/mock/node/main.js [options])

The pet store mock server: spec-driven, stateful, with bearer-key auth and per-plan rate limits.

  --host HOST                  listen address (default 127.0.0.1)
  --port N, -p N               listen port, 0 for any free port (default 4010; env PORT)
  --spec FILE                  OpenAPI document (default spec/openapi.yaml)
  --keys FILE                  keys file (default fixtures/keys.json; env MOCK_KEYS_FILE)
  --seed FILE | --no-seed      seed categories (default fixtures/seed.json; --seed none = empty)
  --quiet, -q                  no request log lines
  --store memory|redis         where categories and counters live (default memory)
  --redis-url URL              Redis for --store redis (env REDIS_URL; default redis://127.0.0.1:6379)
  --cors-origins LIST          comma-separated allowed origins, * for any, none for no CORS (default *)
  --max-body-bytes N           larger bodies get 413 (default 1048576)
  --allow-unknown-fields       accept fields NewCategory does not name (default: 400)
  --allow-empty-name           accept name "" (default: 400)
  --max-name-length N          longest name, 0 = no limit (default 200)
  --max-description-length N   longest description, 0 = no limit (default 2000)
  --ban-threshold N            429s within a minute that ban a key, 0 = never (default 30)
  --ban-seconds N              length of a ban (default 300)
  --sunset DATE                Sunset date of the deprecated pet lookup (not published; none by default)
  --successor-link URL         Link rel="successor-version" of the deprecated pet lookup
  --no-admin                   turn off /_mock/* (reset, state) for a shared deployment
  --admin-token TOKEN          require "Authorization: Bearer TOKEN" on /_mock/* (env MOCK_ADMIN_TOKEN)
  --no-inspector               turn off the inspector page /_mock/inspector (the API reference stays)
  --watch                      reload spec, keys and seed files when they change (stored state is kept)
  --example-engine spec|prism  who answers pets and orders: the spec's examples (default) or Prism 5.12
  --trust-proxy LIST           comma-separated proxies (IPs, CIDRs, loopback, linklocal, uniquelocal) whose
                               X-Forwarded-For gives the client address for per-address limits (default none)
  --help, -h                   this text
`;

export type ConfigResult = { ok: true; config: MockConfig } | { ok: false; error: string } | { ok: 'help' };

/** Parse argv and env into a frozen config, or an error naming the bad option. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ConfigResult {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  if (values.help) return { ok: 'help' };
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
  const cors = values['cors-origins'] ?? DEFAULTS.corsOrigins.join(',');
  const trustProxy = (values['trust-proxy'] ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const trust = parseTrustList(trustProxy);
  if (!trust.ok) errors.push(trust.error);
  const config: MockConfig = {
    host: values.host ?? DEFAULTS.host,
    port: int('port', values.port ?? env.PORT, DEFAULTS.port, 0, 65535),
    specPath: path.resolve(values.spec ?? DEFAULTS.specPath),
    keysFile: path.resolve(values.keys ?? env.MOCK_KEYS_FILE ?? DEFAULTS.keysFile),
    seedFile: seedArg === 'none' ? null : path.resolve(seedArg ?? DEFAULTS.seedFile ?? ''),
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
    policy: {
      allowUnknownFields: values['allow-unknown-fields'] ?? false,
      allowEmptyName: values['allow-empty-name'] ?? false,
      maxNameLength: int('max-name-length', values['max-name-length'], DEFAULTS.policy.maxNameLength, 0),
      maxDescriptionLength: int(
        'max-description-length',
        values['max-description-length'],
        DEFAULTS.policy.maxDescriptionLength,
        0,
      ),
    },
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
    trustProxy,
  };
  if (config.sunset !== null && Number.isNaN(Date.parse(config.sunset)))
    errors.push(`--sunset must be a date, got "${config.sunset}"`);
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return { ok: true, config: Object.freeze(config) };
}

/** Defaults with `overrides` applied, for library use and tests. */
export function configWith(overrides: Partial<MockConfig> = {}): MockConfig {
  return Object.freeze({ ...DEFAULTS, ...overrides, policy: { ...DEFAULTS.policy, ...overrides.policy } });
}
