/**
 * Ids in the document's own form (issue 26.6): where the id's schema has a `pattern`, or its examples show one
 * form (`sched_1234`), generated ids follow it: a prefix and a counter (`sched_1`, `sched_2` …) or a random part
 * of the alphabet and length the document shows (`wh_` and 16 hex digits). Otherwise (a pattern a UUID already
 * fits, no pattern and no example of a form) ids stay UUIDs, as before. Pure: the stores make the ids.
 */
import { toJavaScriptPattern } from './regex-dialect';
import { typesOf, type Schema } from './schema-shape';

export type IdForm =
  | { prefix: string; kind: 'counter' }
  | { prefix: string; kind: 'random'; alphabet: string; length: number }
  /** A string `format` ids must have (`ipv4` for a floating IP's path): drawn at random in that format. */
  | { prefix: ''; kind: 'format'; format: IdFormat };

/** Formats an id can be made in, each from random numbers. */
const FORMAT_IDS = {
  ipv4: (r: (n: number) => number) => `10.${r(256)}.${r(256)}.${1 + r(254)}`,
  ipv6: (r: (n: number) => number) => `2001:db8::${r(65536).toString(16)}:${r(65536).toString(16)}`,
  email: (r: (n: number) => number) => `user${r(1e9)}@example.com`,
  hostname: (r: (n: number) => number) => `host${r(1e9)}.example.com`,
  uri: (r: (n: number) => number) => `http://example.com/${r(1e9)}`,
  url: (r: (n: number) => number) => `http://example.com/${r(1e9)}`,
  date: (r: (n: number) => number) =>
    new Date(Date.UTC(2000, 0, 1) + r(36500) * 86_400_000).toISOString().slice(0, 10),
  'date-time': (r: (n: number) => number) => new Date(Date.UTC(2000, 0, 1) + r(1e9) * 1000).toISOString(),
} as const;
export type IdFormat = keyof typeof FORMAT_IDS;
const isIdFormat = (f: unknown): f is IdFormat => typeof f === 'string' && f in FORMAT_IDS;

const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const LOWER = '0123456789abcdefghijklmnopqrstuvwxyz';
const MIXED = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const UPPER = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LENGTHS = [16, 24, 32, 12, 20, 8, 10, 14, 18, 22, 26, 28, 30, 36, 40, 48, 64, 6, 5, 4, 3, 2, 1];
/** A random form with at most this many ids is searched in full once draws keep hitting taken ones. */
const SMALL_SPACE = 65_536;
const SAMPLE_UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

type IdSchema = Schema & { pattern?: string; minLength?: number; maxLength?: number; example?: unknown };

/** A test that an id fits every schema given (pattern and length), or null when a pattern does not compile. */
function fitter(schemas: readonly IdSchema[]): ((id: string) => boolean) | null {
  const tests: Array<(id: string) => boolean> = [];
  for (const s of schemas) {
    if (s.pattern !== undefined) {
      let re: RegExp;
      try {
        re = new RegExp(toJavaScriptPattern(s.pattern), 'u');
      } catch {
        return null;
      }
      tests.push((id) => re.test(id));
    }
    if (typeof s.minLength === 'number') tests.push((id) => id.length >= (s.minLength as number));
    if (typeof s.maxLength === 'number') tests.push((id) => id.length <= (s.maxLength as number));
  }
  return (id) => tests.every((t) => t(id));
}

/** Two strings of `length` from `alphabet` that use it from both ends, so a narrower class refuses one. */
function probes(alphabet: string, length: number): string[] {
  // Wrapped both ways: a backward probe longer than the alphabet (32 hex digits) runs past its start.
  const at = (i: number) => alphabet[((i % alphabet.length) + alphabet.length) % alphabet.length] as string;
  const forward = Array.from({ length }, (_, i) => at(i)).join('');
  const backward = Array.from({ length }, (_, i) => at(alphabet.length - 1 - i)).join('');
  return [forward, backward];
}

/** The form one example shows: `sched_1234` is `sched_` and a counter; `cus_8f3a2b` is `cus_` and hex. */
function formOfExample(example: string): IdForm | undefined {
  const m = /^([A-Za-z][A-Za-z0-9]*[_\-:.])([A-Za-z0-9]+)$/.exec(example);
  if (!m) return undefined;
  const [, prefix = '', body = ''] = m;
  if (/^\d+$/.test(body)) return { prefix, kind: 'counter' };
  const alphabet = /^[0-9a-f]+$/.test(body)
    ? HEX
    : /^[0-9a-z]+$/.test(body)
      ? LOWER
      : /^[0-9A-Z]+$/.test(body)
        ? UPPER
        : MIXED;
  // An example's random part shows the alphabet; its length may be short for show (`prod_8a1f`): at least a
  // billion ids, so that draws rarely collide.
  const length = Math.max(body.length, Math.ceil(Math.log(1e9) / Math.log(alphabet.length)));
  return { prefix, kind: 'random', alphabet, length };
}

/** The literal start of a pattern (`^wh_[0-9a-f]{16}$` -> `wh_`), short of a character a quantifier follows. */
function literalPrefix(pattern: string): string {
  // Unanchored (AWS's `arn:.+`), the literal text may as well start the id; the form found is tested anyway.
  const body = pattern.startsWith('^') ? pattern.slice(1) : pattern;
  const m = /^[A-Za-z0-9_:-]*/.exec(body);
  let prefix = m?.[0] ?? '';
  const next = body.slice(prefix.length)[0];
  if (next !== undefined && '*+?{'.includes(next)) prefix = prefix.slice(0, -1);
  return prefix;
}

function formOfPattern(pattern: string, fits: (id: string) => boolean): IdForm | undefined {
  const prefix = literalPrefix(pattern);
  if (['1', '2', '10', '1234567'].every((n) => fits(`${prefix}${n}`))) return { prefix, kind: 'counter' };
  for (const alphabet of [HEX, DIGITS, LOWER, UPPER, MIXED])
    for (const length of LENGTHS)
      if (probes(alphabet, length).every((p) => fits(`${prefix}${p}`)))
        return { prefix, kind: 'random', alphabet, length };
  return undefined;
}

const examplesOf = (s: IdSchema): unknown[] => [
  ...(Array.isArray(s.examples) ? (s.examples as unknown[]) : []),
  s.example,
];

/** Each schema and its `allOf` parts (AWS's `arn: { allOf: [{ $ref: Arn }, { description }] }`), to a depth of 4. */
function withParts(schemas: readonly IdSchema[], depth = 0): IdSchema[] {
  if (depth > 4) return [...schemas];
  return schemas.flatMap((s) => {
    const parts = (Array.isArray(s.allOf) ? s.allOf : []).filter(
      (p): p is IdSchema => typeof p === 'object' && p !== null,
    );
    return [s, ...withParts(parts, depth + 1)];
  });
}

/**
 * The form of a string id, from its property schema and the item path parameter's: an example's form that fits
 * every pattern, else UUIDs where they fit, else a form the pattern allows; undefined means UUIDs.
 */
export function idFormOf(schemas: ReadonlyArray<Schema | undefined>): IdForm | undefined {
  const given = withParts(schemas.filter((s): s is IdSchema => s !== undefined));
  // A nullable id (`type: [string, null]`, Twilio's `sid`) is still a string id when there is one.
  if (given.some((s) => s.format === 'uuid' || typesOf(s).some((t) => t !== 'string' && t !== 'null')))
    return undefined;
  // A format the id must have (a floating IP addressed by `format: ipv4`): ids drawn in that format.
  const format = given.map((s) => s.format).find(isIdFormat);
  if (format) return { prefix: '', kind: 'format', format };
  const fits = fitter(given);
  if (!fits) return undefined;
  for (const example of given.flatMap(examplesOf)) {
    if (typeof example !== 'string') continue;
    const form = formOfExample(example);
    if (form && fits(sampleId(form, 1)) && fits(sampleId(form, 987654))) return form;
  }
  if (fits(SAMPLE_UUID)) return undefined;
  for (const s of given) {
    const form = s.pattern === undefined ? undefined : formOfPattern(s.pattern, fits);
    if (form) return form;
  }
  return undefined;
}

/** An id of `form`: the prefix and `n` (a counter), or `n` spread over the random part (for a test). */
function sampleId(form: IdForm, n: number): string {
  if (form.kind === 'counter') return `${form.prefix}${n}`;
  if (form.kind === 'format') return FORMAT_IDS[form.format](() => n);
  return `${form.prefix}${probes(form.alphabet, form.length)[n % 2] ?? ''}`;
}

const ALPHABETS: Record<string, string> = {
  [HEX]: 'hex',
  [DIGITS]: 'digits',
  [LOWER]: 'a-z0-9',
  [UPPER]: 'A-Z0-9',
};

/** The form in words, for the start banner: `sched_1, sched_2…` or `wh_ + 16 hex`. */
export function describeIdForm(form: IdForm): string {
  if (form.kind === 'counter') return `${form.prefix}1, ${form.prefix}2…`;
  if (form.kind === 'format') return `format ${form.format}`;
  return `${form.prefix ? `${form.prefix} + ` : ''}${form.length} ${ALPHABETS[form.alphabet] ?? 'A-Za-z0-9'}`;
}

/** Every id of a random form whose space is small, in order (none for a counter or a large space). */
export function* smallSpace(form: IdForm): Generator<string> {
  if (form.kind !== 'random') return;
  const base = form.alphabet.length;
  const size = base ** form.length;
  if (size > SMALL_SPACE) return;
  for (let i = 0; i < size; i++) {
    let part = '';
    for (let k = 0, v = i; k < form.length; k++, v = Math.floor(v / base))
      part = `${form.alphabet[v % base] ?? ''}${part}`;
    yield `${form.prefix}${part}`;
  }
}

/** A new id of `form`: the prefix and the counter value `seq`, or a random part from `randomInt(n)`. */
export function makeId(form: IdForm, seq: number, randomInt: (below: number) => number): string {
  if (form.kind === 'counter') return `${form.prefix}${seq}`;
  if (form.kind === 'format') return FORMAT_IDS[form.format](randomInt);
  let part = '';
  for (let i = 0; i < form.length; i++) part += form.alphabet[randomInt(form.alphabet.length)] ?? '';
  return `${form.prefix}${part}`;
}
