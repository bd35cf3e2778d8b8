/**
 * The keys file: `{ "keys": [ { "key": "...", "plan": "free" }, { "key": "...", "plan": "enterprise",
 * "perMinute": 5000, "perDay": 2000000 } ] }`. Checked once at start; a bad entry is refused by name.
 * Lookups hash the presented key and compare digests in constant time, so timing says nothing about a key.
 */
import { createHash, hash as cryptoHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ValidateFunction } from 'ajv';
import { sharedAjv } from '../../spec/ajv';
import { formatAjvErrors } from '../../spec/load';
import { PLAN_LIMITS, windowsFor, type PlanName } from './plans';
import type { WindowSpec } from './stores/types';

export interface KeyEntry {
  key: string;
  plan: PlanName;
  perMinute?: number;
  perDay?: number;
}

export interface ApiKey {
  plan: PlanName;
  /** Safe to show and log: the plan and a short digest, never the key. */
  label: string;
  /** Rate-limit subject: derived from the digest, so no store holds a key either. */
  subject: string;
  windows: WindowSpec[];
}

export interface Keyring {
  /** The key's record, or undefined for an unknown key. */
  find(presented: string): ApiKey | undefined;
  /** Every key's public record (for the start banner and the inspector). */
  entries(): ReadonlyArray<ApiKey & { key: string }>;
}

const KEYS_FILE_SCHEMA = {
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'plan'],
        additionalProperties: false,
        properties: {
          key: { type: 'string', minLength: 1, pattern: '^[\\x21-\\x7e]+$' },
          plan: { enum: ['free', 'pro', 'business', 'enterprise'] },
          perMinute: { type: 'integer', minimum: 1 },
          perDay: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
};
let validateKeysFile: ValidateFunction<{ keys: KeyEntry[] }> | undefined;

// crypto.hash (Node ≥ 20.12) is the one-shot form: no Hash object per request.
const digest = (key: string): Buffer =>
  typeof cryptoHash === 'function'
    ? cryptoHash('sha256', key, 'buffer')
    : createHash('sha256').update(key).digest();

/** Check a parsed keys file; an error names the entry (`keys/2/plan must be equal to one of …`). */
export function checkKeys(data: unknown): { ok: true; keys: KeyEntry[] } | { ok: false; error: string } {
  const validate = (validateKeysFile ??= sharedAjv().compile<{ keys: KeyEntry[] }>(KEYS_FILE_SCHEMA));
  if (!validate(data)) {
    return {
      ok: false,
      error: formatAjvErrors(validate.errors, 'keys file').replace(/(^|; )\//g, '$1'),
    };
  }
  const seen = new Set<string>();
  for (const [i, entry] of data.keys.entries()) {
    if (seen.has(entry.key)) return { ok: false, error: `keys/${i}/key repeats an earlier key` };
    seen.add(entry.key);
    const custom = entry.perMinute !== undefined || entry.perDay !== undefined;
    if (entry.plan === 'enterprise' && (entry.perMinute === undefined || entry.perDay === undefined)) {
      return { ok: false, error: `keys/${i}: an enterprise key needs perMinute and perDay` };
    }
    if (entry.plan !== 'enterprise' && custom) {
      return {
        ok: false,
        error: `keys/${i}: perMinute and perDay are only for enterprise keys (plan ${entry.plan} has fixed limits)`,
      };
    }
  }
  return { ok: true, keys: data.keys };
}

/** Read and check a keys file. */
export async function loadKeysFile(
  file: string,
): Promise<{ ok: true; keys: KeyEntry[] } | { ok: false; error: string }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return { ok: false, error: `keys file ${file}: ${(err as Error).message}` };
  }
  const checked = checkKeys(data);
  return checked.ok ? checked : { ok: false, error: `keys file ${file}: ${checked.error}` };
}

/** Build the lookup table once at start. */
export function createKeyring(entries: readonly KeyEntry[]): Keyring {
  const byDigest = new Map<string, ApiKey & { key: string; digest: Buffer }>();
  for (const entry of entries) {
    const d = digest(entry.key);
    const hex = d.toString('hex');
    const limits = entry.plan === 'enterprise' ? entry : PLAN_LIMITS[entry.plan];
    byDigest.set(hex, {
      key: entry.key,
      digest: d,
      plan: entry.plan,
      label: `${entry.plan}:${hex.slice(0, 8)}`,
      subject: `key:${hex.slice(0, 32)}`,
      windows: windowsFor(limits.perMinute ?? 1, limits.perDay ?? 1),
    });
  }
  const all = [...byDigest.values()].map(({ digest: _d, ...rest }) => rest);
  return {
    find(presented) {
      const d = digest(presented);
      const hit = byDigest.get(d.toString('hex'));
      return hit && timingSafeEqual(hit.digest, d) ? hit : undefined;
    },
    entries: () => all,
  };
}
