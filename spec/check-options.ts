/**
 * Every public entry point (the mock's and the runner's) checks the options it is given before using them, and a
 * mistake is a TypeError that names the entry and the option (`createFetchHandler: options.document is required
 * …`), never a failure deep inside (`Cannot use 'in' operator …`). Pure; no node:* module.
 */
import { isObject } from './json';
/** What an option must be: a test and the words for it. */
export interface OptionRule {
  test: (value: unknown) => boolean;
  expected: string;
}

export const rule = {
  string: { test: (v) => typeof v === 'string', expected: 'a string' },
  nonEmptyString: { test: (v) => typeof v === 'string' && v !== '', expected: 'a non-empty string' },
  number: { test: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a finite number' },
  boolean: { test: (v) => typeof v === 'boolean', expected: 'true or false' },
  object: { test: isObject, expected: 'an object' },
  function: { test: (v) => typeof v === 'function', expected: 'a function' },
  stringList: {
    test: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    expected: 'an array of strings',
  },
  /** An OpenAPI document as an object, or a compiled one. */
  document: {
    test: (v) =>
      isObject(v) &&
      (('operations' in v && 'byId' in v) ||
        ((typeof v.openapi === 'string' || typeof v.swagger === 'string') && isObject(v.paths))),
    expected:
      'the OpenAPI document as an object (parsed JSON or YAML, with `openapi` and `paths`) or a loaded spec',
  },
  keys: {
    test: (v) => Array.isArray(v) || (isObject(v) && Array.isArray(v.keys)),
    expected: 'an array of { key, plan } entries or a keys file object { plans?, keys }',
  },
  clock: { test: (v) => isObject(v) && typeof v.now === 'function', expected: 'an object with now()' },
} satisfies Record<string, OptionRule>;

/** `rule` that also accepts null. */
export const orNull = (r: OptionRule): OptionRule => ({
  test: (v) => v === null || r.test(v),
  expected: `${r.expected} or null`,
});

/**
 * Throw a TypeError naming `entry` and the first option that is missing, unknown or of the wrong kind.
 * `undefined` counts as not given.
 */
export function checkOptions(
  entry: string,
  options: unknown,
  rules: Record<string, OptionRule>,
  required: readonly string[] = [],
): void {
  if (options === undefined && required.length === 0) return;
  if (!isObject(options))
    throw new TypeError(`${entry}: options must be an object, got ${describe(options)}`);
  for (const name of required) {
    if (options[name] === undefined)
      throw new TypeError(`${entry}: options.${name} is required: ${rules[name]?.expected ?? 'a value'}`);
  }
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const r = rules[name];
    if (!r)
      throw new TypeError(
        `${entry}: unknown option "${name}" (known: ${Object.keys(rules).sort().join(', ')})`,
      );
    if (!r.test(value))
      throw new TypeError(`${entry}: options.${name} must be ${r.expected}, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
