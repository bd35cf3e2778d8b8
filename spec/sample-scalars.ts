/**
 * Strings and numbers for spec/sample.ts: a believable value where the field's name or format says what it holds
 * (./believable.ts), else one drawn from its `pattern` (randexp, seeded), else a fixed value of its format; each
 * fitted to the schema's lengths and bounds. A candidate the schema refuses is never returned where another fits.
 */
import RandExp from 'randexp';
import { inventInteger, inventString, type Invention } from './believable';
import { fits, formatFits, patternOf, safeIntegerAllowed } from './schema-fits';

type Json = Record<string, unknown>;

/** Fixed values of each format, used where a believable one does not fit the schema's other keywords. */
const FORMATS: Record<string, string> = {
  'date-time': '2019-08-24T14:15:22Z',
  'iso-date-time': '2019-08-24T14:15:22Z',
  date: '2019-08-24',
  time: '14:15:22Z',
  'iso-time': '14:15:22Z',
  duration: 'P3D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.168.0.1',
  ipv6: '2001:db8::1',
  uri: 'http://example.com',
  url: 'http://example.com',
  'uri-reference': '../dictionary',
  iri: 'http://example.com',
  'iri-reference': '../dictionary',
  'uri-template': 'http://example.com/{endpoint}',
  uuid: '095be615-a8ad-4c33-8e9c-c7612fbf6c9f',
  'json-pointer': '/json/pointer',
  'json-pointer-uri-fragment': '#/json/pointer',
  'relative-json-pointer': '1/relative/json/pointer',
  regex: '/regex/',
  byte: 'U3dhZ2dlciByb2Nrcw==',
  password: 'pa$$word',
  binary: 'string',
};

/** The seeded source of randexp: the same pattern draws the same strings in every run. */
function seeded(seed: number): (lo: number, hi: number) => number {
  let s = seed >>> 0 || 1;
  return (lo, hi) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + Math.floor((s / 2 ** 32) * (hi - lo + 1));
  };
}

/**
 * The pattern without its lookbehind groups (`(?<!-)`, `(?<=x)`), which randexp cannot parse: it draws from the
 * rest, and each draw is still tested against the whole pattern (a hostname's `(?<!-)\.` rarely matters).
 */
export function withoutLookbehinds(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      const end = classEnd(source, i);
      out += source.slice(i, end + 1);
      i = end;
    } else if (source.startsWith('(?<=', i) || source.startsWith('(?<!', i)) i = groupEnd(source, i);
    else out += c;
  }
  return out;
}

/** The index of the `]` closing the character class opened at `i` (escapes skipped). */
function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
  return j;
}

/** The index of the `)` closing the group opened at `i` (escapes, classes and nested groups skipped). */
function groupEnd(source: string, i: number): number {
  let depth = 0;
  for (let j = i; j < source.length; j++) {
    const c = source[j];
    if (c === '\\') j++;
    else if (c === '[') j = classEnd(source, j);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return source.length;
}

/** A randexp drawing from `re`, or from it without lookbehinds when randexp cannot parse it; else undefined. */
function generatorOf(re: RegExp): RandExp | undefined {
  for (const source of [re.source, withoutLookbehinds(re.source)]) {
    try {
      return new RandExp(new RegExp(source, re.flags));
    } catch {
      // the next, or none
    }
  }
  return undefined;
}

/** A string the pattern (and the schema's lengths and format) accepts; undefined when none is found. */
function fromPattern(s: Json, pattern: string, variant: number): string | undefined {
  const re = patternOf(pattern);
  if (!re) return undefined;
  const gen = generatorOf(re);
  if (!gen) return undefined;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  gen.max = Math.max(4, Math.min(16, Number.isFinite(max) ? max : 16, min > 16 ? min : 16));
  gen.randInt = seeded(pattern.length * 7919 + variant * 104729 + 17);
  for (let i = 0; i < 40; i++) {
    let text: string;
    try {
      text = gen.gen();
    } catch {
      return undefined;
    }
    if (i >= 20) gen.max = Math.max(gen.max, min);
    if (stringOk(s, text)) return text;
    // A pattern free at its start beside a format (`.+/v[0-1]` of a `uri`): the format's value, then the match.
    const lead = typeof s.format === 'string' && !pattern.startsWith('^') ? FORMATS[s.format] : undefined;
    if (lead !== undefined && stringOk(s, `${lead}/${text}`)) return `${lead}/${text}`;
  }
  return undefined;
}

const stringOk = (s: Json, text: string): boolean => fits(text, { ...s, type: 'string', enum: undefined });

/** A string of the schema's format, pattern and lengths, believable where `inv` says what the field holds. */
export function stringFor(s: Json, variant: number, inv?: Invention): string {
  const format = typeof s.format === 'string' ? s.format : undefined;
  const invented = inv ? inventString(s, inv) : undefined;
  if (invented !== undefined && stringOk(s, invented)) return invented;
  if (typeof s.pattern === 'string') {
    const text = fromPattern(s, s.pattern, variant);
    if (text !== undefined) return text;
  }
  let text = format && FORMATS[format] !== undefined ? FORMATS[format] : 'string';
  if (variant > 0) text = withVariant(text, format, variant);
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if (format === 'byte') return base64Within(text, min, max);
  if ([...text].length > max) text = [...text].slice(0, max).join('');
  while ([...text].length < min) text += 'string'.slice(0, min - [...text].length);
  if (format && !formatFits(format, text)) text = FORMATS[format] ?? text;
  return text;
}

/**
 * Base64 (`format: byte`) of a length the bounds allow: base64 comes in blocks of four characters, so text cut
 * or padded to a length as other strings are would not decode; `text` itself when it fits already.
 */
function base64Within(text: string, min: number, max: number): string {
  if (text.length >= min && text.length <= max) return text;
  const blocks = Math.max(0, Math.ceil(min / 4));
  if (blocks * 4 > max) return text;
  return 'QUJD'.repeat(blocks);
}

/** A value distinct from the first for `uniqueItems` (a later day, another address, a number at the end). */
function withVariant(text: string, format: string | undefined, n: number): string {
  if (format === 'date-time' || format === 'date')
    return text.replace(/^2019-08-\d\d/, `2019-08-${String(1 + (n % 28)).padStart(2, '0')}`);
  if (format === 'uuid') return `${text.slice(0, -4)}${String(n % 10000).padStart(4, '0')}`;
  if (format === 'ipv4') return `192.168.0.${(n % 254) + 1}`;
  if (format === 'email') return `user${n}@example.com`;
  if (format === 'uri' || format === 'url') return `http://example.com/${n}`;
  return format && FORMATS[format] !== undefined ? text : `${text}${n}`;
}

/** A number within the schema's bounds: a Unix time or an id where the field's name says so, else the least. */
export function numberFor(s: Json, integer: boolean, variant: number, inv?: Invention): number {
  const invented = inv ? inventInteger(s, inv) : undefined;
  if (invented !== undefined && fits(invented, { ...s, enum: undefined })) return invented;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : integer ? 1 : 0;
  let lo = typeof s.minimum === 'number' ? s.minimum : -Infinity;
  let hi = typeof s.maximum === 'number' ? s.maximum : Infinity;
  if (s.format === 'int64' && safeIntegerAllowed(s)) {
    // ./schema-fits.ts: an int64 stays a safe integer unless the bounds allow none
    lo = Math.max(lo, -Number.MAX_SAFE_INTEGER);
    hi = Math.min(hi, Number.MAX_SAFE_INTEGER);
  }
  const exLo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  const exHi = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined;
  const nudge = step || 0.5;
  if (exLo !== undefined && exLo >= lo) lo = integer || step ? exLo + nudge : exLo + 0.5;
  if (exHi !== undefined && exHi <= hi) hi = integer || step ? exHi - nudge : exHi - 0.5;
  let v = lo > 0 ? lo : hi < 0 ? hi : 0;
  v += variant;
  if (v > hi) v = hi;
  if (integer) v = v >= 0 ? Math.ceil(v) : Math.floor(v);
  if (step) {
    v = Math.ceil(v / step) * step;
    if (v > hi) v = Math.floor(hi / step) * step;
  }
  return v;
}
