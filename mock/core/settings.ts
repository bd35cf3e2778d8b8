/**
 * The engine's settings: every "not shown" detail of the interface that the mock decides, as plain data.
 * The Node layer (mock/node/config.ts) fills them from argv and env; the fetch and MSW adapters take them as
 * options. Nothing here reads a file or the environment.
 */

/** Extra bounds the mock puts on a request body property, where the document publishes none. */
export interface PropertyRule {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

export interface ValidationPolicy {
  /** Properties a request schema does not name: rejected (400) unless allowed. */
  allowUnknownFields: boolean;
  /** The mock's own bounds, keyed by component schema name, then property name. */
  rules: Record<string, Record<string, PropertyRule>>;
}

/** Requests per minute and per day of a plan. */
export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

export interface MockConfig {
  host: string;
  port: number;
  specPath: string;
  keysFile: string;
  /** Seed file, or null for empty stores. */
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
  /** §9.3: the sunset date of a deprecated operation without `x-sunset` (HTTP-date or ISO). */
  sunset: string | null;
  successorLink: string | null;
  /** Admin routes outside the base path (`/_mock/…`), and an optional token that guards them. */
  admin: boolean;
  adminToken: string | null;
  /** The inspector page (`/_mock/inspector`). Off with --no-inspector. */
  inspector: boolean;
  watch: boolean;
  /** Who answers operations that fit no resource shape: the document's examples (then schema), or Prism. */
  exampleEngine: 'spec' | 'prism';
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxHeaderBytes: number;
  /** Most records one resource holds; a create beyond it is a 409 Error. */
  maxRecords: number;
  /** Send the IETF `RateLimit` and `RateLimit-Policy` fields next to `X-RateLimit-*`. */
  rateLimitFields: boolean;
  /** Overrides the base path taken from the document's first server URL. */
  basePath: string | null;
  /** The plans keys may name, when the keys file defines none. */
  plans: Record<string, PlanLimits>;
  /** Proxies whose X-Forwarded-For names the client (IPs, CIDRs, `loopback`); empty: the socket's address. */
  trustProxy: string[];
  /** Accept keys shorter than 16 characters from a keys file (the shipped demo keys always are). */
  allowShortKeys: boolean;
}

/** §8: the pet store's plans (enterprise limits come from each key entry). */
export const DEFAULT_PLANS: Readonly<Record<string, PlanLimits>> = Object.freeze({
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
});

/**
 * The pet store's own settings for what §2 leaves unpublished: an empty category name is refused, names up to
 * 200 characters, descriptions up to 2000. Keyed by schema name: other documents get no extra bounds.
 */
export const PETSTORE_POLICY: Readonly<ValidationPolicy> = Object.freeze({
  allowUnknownFields: false,
  rules: { NewCategory: { name: { minLength: 1, maxLength: 200 }, description: { maxLength: 2000 } } },
});

/**
 * The pet store's body bounds with the flags applied: `--allow-empty-name`, `--max-name-length` and
 * `--max-description-length` tune the NewCategory rules (0 = no limit).
 */
export function petstorePolicy(
  allowUnknownFields: boolean,
  allowEmptyName: boolean,
  maxName: number,
  maxDescription: number,
): ValidationPolicy {
  const base = PETSTORE_POLICY.rules.NewCategory ?? {};
  const name = {
    ...base.name,
    minLength: allowEmptyName ? undefined : 1,
    maxLength: maxName > 0 ? maxName : undefined,
  };
  const description = { ...base.description, maxLength: maxDescription > 0 ? maxDescription : undefined };
  const clean = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return {
    allowUnknownFields,
    rules: { ...PETSTORE_POLICY.rules, NewCategory: { name: clean(name), description: clean(description) } },
  };
}

/** Defaults that need no file system: the engine's, for every adapter. Paths are empty here. */
export const ENGINE_DEFAULTS: Readonly<MockConfig> = Object.freeze({
  host: '127.0.0.1',
  port: 4010,
  specPath: '',
  keysFile: '',
  seedFile: null,
  quiet: false,
  store: 'memory',
  redisUrl: 'redis://127.0.0.1:6379',
  corsOrigins: ['*'],
  maxBodyBytes: 1024 * 1024,
  policy: PETSTORE_POLICY,
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
  maxRecords: 10_000,
  rateLimitFields: true,
  basePath: null,
  plans: DEFAULT_PLANS,
  trustProxy: [],
  allowShortKeys: false,
});
