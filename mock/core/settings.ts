/**
 * The engine's settings: every "not shown" detail of the interface that the mock decides, as plain data.
 * The Node layer (mock/node/config.ts) fills them from argv and env; the fetch and MSW adapters take them as
 * options. Nothing here reads a file or the environment; the shipped settings are data bundled with the code.
 */
import shipped from '../../spec/openapi.settings.json';
import type { UnexpectedBody } from '../../spec/http/request-body';
import type { OperationChaos } from './chaos';

/** A state change a webhook reports (issue 33). */
export type WebhookEvent = 'created' | 'updated' | 'deleted';

/** How a webhook's body is signed: `sha256=<hex>`, bare `<hex>`, or Stripe's `t=<unix s>,v1=<hex>`. */
export type SignatureFormat = 'sha256' | 'hex' | 'stripe';

/** One webhook's settings (by its name in the document's `webhooks`): what triggers it, where and how it goes. */
export interface WebhookSetting {
  /** The resource (as the start banner names it) whose `event` sends this webhook; both or neither. */
  resource?: string;
  event?: WebhookEvent;
  /** false: never sent on a state change (still on demand). */
  enabled?: boolean;
  /** Its own target, over `webhookUrl`. */
  url?: string;
  /** Its own signing secret and format, over `webhookSecret` and `webhookSignature`. */
  secret?: string;
  signature?: SignatureFormat;
}

/**
 * The credential sent to a callback or webhook whose own `security` names this scheme: a bearer token (http
 * bearer, oauth2, openIdConnect), an apiKey value (in the scheme's header, query parameter or cookie), or a
 * Basic user name and password. A bare string is the token or the value.
 */
export type OutgoingCredential =
  string | { token?: string; value?: string; username?: string; password?: string };

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
  /**
   * A readOnly property a client sends in a create, replace or patch (OpenAPI: SHOULD NOT be sent; JSON Schema
   * 2020-12 §9.4: the owning authority ignores or rejects it): refused with 400 (`reject`, the default) or dropped
   * (`ignore`). Either way the client's value is never stored.
   */
  readOnlyProperties?: ReadOnlyHandling;
  /**
   * A body (bytes with a Content-Type) sent to an operation that documents none: refused with 415 (`refuse`, the
   * default, as the proxy's judge and the runner expect: spec/http/request-body.ts) or not read (`ignore`).
   */
  unexpectedBody?: UnexpectedBody;
}

/** What the mock does with a readOnly property in a request body (never stored either way). */
export type ReadOnlyHandling = 'reject' | 'ignore';

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
  /** `--seed-har FILE…`: records built from recorded answers instead of a seed file. */
  seedHarFiles?: string[];
  quiet: boolean;
  /** A store's name (`memory`, `redis`): the Node layer's mock/node/stores/index.ts knows the implementations. */
  store: string;
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
  /** The settings file read at start and on a --watch reload; null: the shipped settings, or none. */
  settingsFile: string | null;
  /** What the command line set over the settings file, kept so a reload applies it again. */
  settingsFlags: SettingsFlags;
  /** `--latency MS[-MS]`: every API answer held back that long (a range: drawn per request); null: none. */
  latency: string | null;
  /** `--faults RATE`: the share of API requests answered with a documented 5xx or 429, or a reset connection. */
  faults: number;
  /** Seed of the random draws of latency ranges and faults (`--random-seed`): repeatable runs. */
  randomSeed: number;
  /** Latency and faults per operationId, over the two above (the settings file's `operations`). */
  operationChaos: Record<string, OperationChaos>;
  /** Hosts callbacks may be sent to (`loopback`, names, addresses): never any host a request names. */
  callbackHosts: string[];
  /** How long one callback attempt waits for its answer. */
  callbackTimeoutMs: number;
  /** `--webhooks URL`: where the document's webhooks are sent on a state change; null: not sent (issue 33). */
  webhookUrl: string | null;
  /** The secret webhooks that document a signature header are signed with (never logged or shown). */
  webhookSecret: string | null;
  /** The signature format; null: `stripe` for a `Stripe-Signature` header, else `sha256`. */
  webhookSignature: SignatureFormat | null;
  /** Per webhook, by name: trigger, target, secret (the settings file's `webhooks`). */
  webhooks: Record<string, WebhookSetting>;
  /** Credentials sent to callbacks and webhooks, by the security scheme their `security` names. */
  callbackCredentials: Record<string, OutgoingCredential>;
}

/** Command-line values that win over a settings file. */
export interface SettingsFlags extends BoundTuning {
  allowUnknownFields?: boolean;
  sunset?: string;
  successorLink?: string;
  latency?: string;
  faults?: number;
  webhookUrl?: string;
  /** From the environment (MOCK_WEBHOOK_SECRET), never from argv: a command line is visible to every user. */
  webhookSecret?: string;
}

/** A document's settings file (JSON or YAML): the "not shown" details the mock decides for that document. */
export interface DocumentSettings {
  /** A heading for `--help`, naming whose settings these are. */
  title?: string;
  description?: string;
  allowUnknownFields?: boolean;
  /** A readOnly property sent by a client: `reject` (400, the default) or `ignore` (dropped, never stored). */
  readOnlyProperties?: ReadOnlyHandling;
  /** A body sent to an operation that documents none: `refuse` (415, the default) or `ignore` (not read). */
  unexpectedBody?: UnexpectedBody;
  /** The mock's own bounds, keyed by component schema name, then property name. */
  bodyBounds?: Record<string, Record<string, PropertyRule>>;
  sunset?: string | null;
  successorLink?: string | null;
  /** The plans keys may name, when the keys file defines none. */
  plans?: Record<string, PlanLimits>;
  /** Every API answer held back `MS` or `MIN-MAX` milliseconds. */
  latency?: string;
  /** The share of API requests answered with a fault. */
  faults?: number;
  /** Latency and faults of single operations, by operationId. */
  operations?: Record<string, OperationChaos>;
  /** Where webhooks go (`--webhooks URL` wins), the signing secret and format, and each webhook's own settings. */
  webhookUrl?: string;
  webhookSecret?: string;
  webhookSignature?: SignatureFormat;
  webhooks?: Record<string, WebhookSetting>;
  /** Credentials for callbacks and webhooks, by security scheme name. */
  callbackCredentials?: Record<string, OutgoingCredential>;
}

/** The shipped settings: the default document's (spec/openapi.settings.json), for every adapter. */
export const SHIPPED_SETTINGS: Readonly<DocumentSettings> = Object.freeze(shipped as DocumentSettings);

/** §8: the default plans, from the shipped settings (enterprise limits come from each key entry). */
export const DEFAULT_PLANS: Readonly<Record<string, PlanLimits>> = Object.freeze({
  ...SHIPPED_SETTINGS.plans,
});

/** Pure: the validation policy a settings file gives. */
export function policyOf(settings: DocumentSettings): ValidationPolicy {
  return {
    allowUnknownFields: settings.allowUnknownFields ?? false,
    rules: settings.bodyBounds ?? {},
    // Absent: `reject` (what the body checks assume when a policy says nothing).
    ...(settings.readOnlyProperties ? { readOnlyProperties: settings.readOnlyProperties } : {}),
    ...(settings.unexpectedBody ? { unexpectedBody: settings.unexpectedBody } : {}),
  };
}

/** How the bound flags tune a settings file's `name` and `description` bounds (0 = no limit). */
export interface BoundTuning {
  allowEmptyName?: boolean;
  maxName?: number;
  maxDescription?: number;
}

/**
 * Pure: `policy` with the tuning applied to every bounded `name` (`--allow-empty-name`, `--max-name-length`)
 * and `description` (`--max-description-length`) property; other bounds are kept.
 */
export function tuneBounds(policy: ValidationPolicy, tuning: BoundTuning): ValidationPolicy {
  const clean = (o: PropertyRule): PropertyRule =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const maxOf = (n: number | undefined, was: number | undefined) =>
    n === undefined ? was : n > 0 ? n : undefined;
  const tune = (property: string, rule: PropertyRule): PropertyRule => {
    if (property === 'name')
      return clean({
        ...rule,
        minLength: tuning.allowEmptyName ? undefined : rule.minLength,
        maxLength: maxOf(tuning.maxName, rule.maxLength),
      });
    if (property === 'description')
      return clean({ ...rule, maxLength: maxOf(tuning.maxDescription, rule.maxLength) });
    return rule;
  };
  const rules = Object.fromEntries(
    Object.entries(policy.rules).map(([schema, props]) => [
      schema,
      Object.fromEntries(Object.entries(props).map(([p, r]) => [p, tune(p, r)])),
    ]),
  );
  return { ...policy, rules };
}

/** Pure: the settings a file gives, with the command line's values over them; plans fall back to `plans`. */
export function applySettings(
  settings: DocumentSettings,
  flags: SettingsFlags,
  plans: Readonly<Record<string, PlanLimits>>,
): Pick<
  MockConfig,
  | 'policy'
  | 'sunset'
  | 'successorLink'
  | 'plans'
  | 'latency'
  | 'faults'
  | 'operationChaos'
  | 'webhookUrl'
  | 'webhookSecret'
  | 'webhookSignature'
  | 'webhooks'
  | 'callbackCredentials'
> {
  const policy = policyOf(settings);
  if (flags.allowUnknownFields) policy.allowUnknownFields = true;
  return {
    policy: tuneBounds(policy, flags),
    sunset: flags.sunset ?? settings.sunset ?? null,
    successorLink: flags.successorLink ?? settings.successorLink ?? null,
    plans: settings.plans ?? plans,
    latency: flags.latency ?? settings.latency ?? null,
    faults: flags.faults ?? settings.faults ?? 0,
    operationChaos: settings.operations ?? {},
    webhookUrl: flags.webhookUrl ?? settings.webhookUrl ?? null,
    webhookSecret: flags.webhookSecret ?? settings.webhookSecret ?? null,
    webhookSignature: settings.webhookSignature ?? null,
    webhooks: settings.webhooks ?? {},
    callbackCredentials: settings.callbackCredentials ?? {},
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
  policy: policyOf(SHIPPED_SETTINGS),
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
  settingsFile: null,
  settingsFlags: {},
  latency: null,
  faults: 0,
  randomSeed: 1,
  operationChaos: {},
  callbackHosts: ['loopback'],
  callbackTimeoutMs: 5000,
  webhookUrl: null,
  webhookSecret: null,
  webhookSignature: null,
  webhooks: {},
  callbackCredentials: {},
});
