/**
 * The keys file, as data: `{ "plans": { "free": { "perMinute": 60, "perDay": 1000 }, … }, "keys": [ { "key":
 * "...", "plan": "free", "name": "alice" }, { "key": "...", "plan": "enterprise", "perMinute": 5000, "perDay":
 * 2000000 } ] }`. `plans` is optional and adds to the built-in plans (a plan of the same name replaces one); a key of a plan without fixed limits (the
 * the default document's enterprise plan) gives its own. Checked once at start; a bad entry is refused by name. Digests come from
 * WebCrypto, so the engine needs no node:crypto.
 */
import { isObject } from '../../spec/json';
import type { ValidateFunction } from 'ajv';
import { sharedAjv } from '../../spec/ajv';
import { formatAjvErrors } from '../../spec/compile';
import { DEFAULT_PLANS, type PlanLimits } from './settings';
import { windowsFor } from './plans';
import type { WindowSpec } from './stores/types';

export interface KeyEntry {
  key: string;
  plan: string;
  /** Shown in logs and pages instead of a digest. */
  name?: string;
  perMinute?: number;
  perDay?: number;
}

export interface KeysFile {
  plans?: Record<string, PlanLimits>;
  keys: KeyEntry[];
}

export interface ApiKey {
  plan: string;
  /** Safe to show and log: the entry's name, or the plan and an HMAC under a per-process secret; never the key. */
  label: string;
  /** Rate-limit subject, the same in every process sharing a store: a digest, so no store holds a key. */
  subject: string;
  windows: WindowSpec[];
}

export interface Keyring {
  /** The key's record, or undefined for an unknown key. */
  find(presented: string): ApiKey | undefined;
  /** Every key's public record (for the start banner and the inspector). */
  entries(): ReadonlyArray<ApiKey & { key: string }>;
}

/** Keys shorter than this are refused unless short keys are allowed (they can be guessed). */
export const MIN_KEY_LENGTH = 16;
/** A plan without fixed limits: its keys give perMinute and perDay (§8: enterprise is "custom"). */
const CUSTOM_PLAN = 'enterprise';

const limitsSchema = {
  type: 'object',
  required: ['perMinute', 'perDay'],
  additionalProperties: false,
  properties: { perMinute: { type: 'integer', minimum: 1 }, perDay: { type: 'integer', minimum: 1 } },
};

const FILE_SCHEMA = {
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: {
    plans: { type: 'object', additionalProperties: limitsSchema },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'plan'],
        additionalProperties: false,
        properties: {
          key: { type: 'string', minLength: 1, pattern: '^[\\x21-\\x7e]+$' },
          plan: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1, maxLength: 64 },
          perMinute: { type: 'integer', minimum: 1 },
          perDay: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
};
let validateFile: ValidateFunction<KeysFile> | undefined;

/** The built-in plans with the keys file's own added (a plan of the same name replaces the built-in one). */
export function plansOf(
  data: unknown,
  defaults: Record<string, PlanLimits> = DEFAULT_PLANS,
): Record<string, PlanLimits> {
  const own = isObject(data) && isObject(data.plans) ? (data.plans as Record<string, PlanLimits>) : {};
  return { ...defaults, ...own };
}

/** Check a parsed keys file; an error names the entry (`keys/2/plan must be equal to one of …`). */
export function checkKeys(
  data: unknown,
  options: { allowShortKeys?: boolean; defaultPlans?: Record<string, PlanLimits> } = {},
):
  | { ok: true; file: KeysFile; keys: KeyEntry[]; plans: Record<string, PlanLimits> }
  | { ok: false; error: string } {
  const plans = plansOf(data, options.defaultPlans);
  const names = [...new Set([...Object.keys(plans), CUSTOM_PLAN])];
  const validate = (validateFile ??= sharedAjv().compile<KeysFile>(FILE_SCHEMA));
  if (!validate(data)) {
    return { ok: false, error: formatAjvErrors(validate.errors, 'keys file').replace(/(^|; )\//g, '$1') };
  }
  // Every entry's plan first, as the file's schema is checked before any entry's rules.
  const unknown = data.keys.findIndex((entry) => !names.includes(entry.plan));
  if (unknown !== -1)
    return {
      ok: false,
      error: `keys/${unknown}/plan must be equal to one of the allowed values: unknown plan "${data.keys[unknown]?.plan ?? ''}" (known plans: ${names.join(', ')})`,
    };
  const seen = new Set<string>();
  for (const [i, entry] of data.keys.entries()) {
    if (seen.has(entry.key)) return { ok: false, error: `keys/${i}/key repeats an earlier key` };
    seen.add(entry.key);
    const custom = entry.perMinute !== undefined || entry.perDay !== undefined;
    const fixed = plans[entry.plan];
    if (!fixed && (entry.perMinute === undefined || entry.perDay === undefined)) {
      return { ok: false, error: `keys/${i}: an ${entry.plan} key needs perMinute and perDay` };
    }
    if (fixed && custom) {
      return {
        ok: false,
        error: `keys/${i}: perMinute and perDay are only for ${CUSTOM_PLAN} keys (plan ${entry.plan} has fixed limits)`,
      };
    }
    if (!options.allowShortKeys && entry.key.length < MIN_KEY_LENGTH) {
      return {
        ok: false,
        error: `keys/${i}/key is shorter than ${MIN_KEY_LENGTH} characters (guessable); use a longer key or --allow-short-keys`,
      };
    }
  }
  return { ok: true, file: data, keys: data.keys, plans };
}

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = new TextEncoder();

/** SHA-256 of `text` as hex, through WebCrypto (Node >= 20 and browsers). */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', utf8.encode(text)));
}

/** An HMAC key of WebCrypto (typed without the DOM library). */
export type LabelSecret = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

let processSecret: Promise<LabelSecret> | undefined;

/**
 * The per-process secret for labels, made once: two processes never label a key alike and no label can be
 * looked up, while within one process a key keeps its label across reloads of the keys file.
 */
export function labelSecret(): Promise<LabelSecret> {
  processSecret ??= globalThis.crypto.subtle.importKey(
    'raw',
    globalThis.crypto.getRandomValues(new Uint8Array(32)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return processSecret;
}

/** Build the lookup table once at start (digests and labels computed here, never per request). */
export async function createKeyring(
  entries: readonly KeyEntry[],
  plans: Record<string, PlanLimits> = DEFAULT_PLANS,
  secret?: LabelSecret,
): Promise<Keyring> {
  const labelKey = secret ?? (await labelSecret());
  const byKey = new Map<string, ApiKey & { key: string }>();
  for (const entry of entries) {
    const limits = plans[entry.plan] ?? { perMinute: entry.perMinute ?? 1, perDay: entry.perDay ?? 1 };
    const digest = await sha256Hex(entry.key);
    const mac = hex(await globalThis.crypto.subtle.sign('HMAC', labelKey, utf8.encode(entry.key)));
    byKey.set(entry.key, {
      key: entry.key,
      plan: entry.plan,
      label: entry.name ? `${entry.plan}:${entry.name}` : `${entry.plan}:${mac.slice(0, 8)}`,
      subject: `key:${digest.slice(0, 32)}`,
      windows: windowsFor(limits.perMinute, limits.perDay),
    });
  }
  const all = [...byKey.values()];
  return {
    // A Map lookup hashes the whole presented string: its timing says nothing about how much of a key matched.
    find: (presented) => byKey.get(presented),
    entries: () => all,
  };
}
