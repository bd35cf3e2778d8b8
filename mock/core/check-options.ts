/** The rules of the mock's public entry points' options (spec/check-options.ts checks them). */
import { orNull, rule, type OptionRule } from '../../spec/check-options';
import { ENGINE_DEFAULTS } from './settings';

/** Rules for every engine setting (MockConfig), from the type of its default. */
export function settingRules(): Record<string, OptionRule> {
  const out: Record<string, OptionRule> = {};
  for (const [name, value] of Object.entries(ENGINE_DEFAULTS)) {
    if (typeof value === 'string') out[name] = rule.string;
    else if (typeof value === 'number') out[name] = rule.number;
    else if (typeof value === 'boolean') out[name] = rule.boolean;
    else if (Array.isArray(value)) out[name] = rule.stringList;
    else if (value === null) out[name] = orNull(rule.string);
    else out[name] = rule.object;
  }
  return out;
}

/** The engine's own options (document, keys, seed, stores, clock …), shared by the fetch and MSW entries. */
export const ENGINE_OPTION_RULES: Record<string, OptionRule> = {
  document: rule.document,
  keys: rule.keys,
  seed: rule.object,
  clock: rule.clock,
  records: rule.object,
  limiter: rule.object,
  log: rule.object,
  engine: rule.function,
  config: rule.object,
  allowShortKeys: rule.boolean,
  sleep: rule.function,
  outbox: rule.function,
};
