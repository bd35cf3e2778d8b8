/**
 * Believable invented values (issue 38): where the document gives no example, a field's name and format say
 * what it holds: an e-mail for `email`, a URL for `avatar_url`, a time near now for `created_at` (a Unix
 * integer where the field is an integer), a version for `version`, names, phone numbers, country and currency
 * codes, addresses and host names, base64 for `format: byte` (`contentEncoding: base64` once upgraded to 3.1).
 * Drawn with faker, seeded from the field's place in the answer: the same document, requests and day give the
 * same values. The caller checks each value against the schema (pattern, lengths, bounds) and falls back to
 * its plain one when it does not fit. Pure, and safe for the browser (no Buffer).
 */
import type { Faker } from '@faker-js/faker';
import { faker as baseFaker } from '@faker-js/faker/locale/base';
import type { LocaleDefinition } from '@faker-js/faker';
import { MOCK_LOCALE } from './believable-locale';
import { kindOfName, timeDirection, wordsOf, type Kind } from './field-kind';
import { fits } from './schema-fits';
import type { Schema } from './schema-shape';

type Json = Record<string, unknown>;

/** Where a value is invented: the field's name and path in the answer, the variant, the seed and now. */
export interface Invention {
  /** The property's name (or the array's, for its items). */
  name?: string;
  /** The property path (`owner.email`): two fields of one name get different values. */
  path: string;
  variant: number;
  seed: number;
  nowMs: number;
}

// The package's main entry holds every locale (about 1 MB gzipped in a CommonJS bundle, which cannot drop
// them); its `locale/base` entry holds the Faker class and the base locale only. Its class makes our instance.
const FakerClass = baseFaker.constructor as new (options: { locale: LocaleDefinition[] }) => Faker;
const faker = new FakerClass({ locale: [MOCK_LOCALE, baseFaker.rawDefinitions] });
const DAY_MS = 86_400_000;

/** FNV-1a: a 32-bit seed from the invention's place, so a value does not depend on what was drawn before. */
function seedOf(inv: Invention): number {
  let h = 0x811c9dc5;
  const text = `${inv.seed}|${inv.path}|${inv.variant}`;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function seeded(inv: Invention): Faker {
  faker.seed(seedOf(inv));
  return faker;
}

/** A moment near now: created in the last month, updated today, expiring in the next month. */
export function timeNear(inv: Invention, f: Faker = seeded(inv)): Date {
  // Anchored to the start of the day, so values stay the same through a day of runs.
  const anchor = Math.floor(inv.nowMs / DAY_MS) * DAY_MS;
  const direction = timeDirection(wordsOf(inv.name ?? ''));
  const seconds = (days: number) => f.number.int({ min: 60, max: (days * DAY_MS) / 1000 }) * 1000;
  if (direction === 'future') return new Date(anchor + DAY_MS + seconds(30));
  if (direction === 'recent') return new Date(anchor - seconds(1));
  if (direction === 'past') return new Date(anchor - DAY_MS - seconds(30));
  return new Date(anchor - seconds(7));
}

const isoSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

const lengthsOf = (s: Json): { min: number; max: number } => ({
  min: typeof s.minLength === 'number' ? s.minLength : 0,
  max: typeof s.maxLength === 'number' ? s.maxLength : Infinity,
});

/** Valid base64 whose length (a multiple of 4) lies within the schema's lengths; '' when only that fits. */
export function base64Within(s: Json, f: Faker): string {
  const { min, max } = lengthsOf(s);
  const quads = Math.max(Math.ceil(min / 4), Math.min(4, Math.floor(max / 4)));
  if (quads * 4 > max) return '';
  const text = f.string.alphanumeric(quads * 3);
  return btoa(text);
}

/** The last word of the field's name (`avatar_url` -> `avatar`), for paths in invented URLs. */
const stemOf = (inv: Invention): string => {
  const words = wordsOf(inv.name ?? '').filter((w) => !['url', 'uri', 'href', 'link', 'id'].includes(w));
  return words.join('-') || 'items';
};

type Maker = (f: Faker, inv: Invention, s: Json) => string;

const slug = (f: Faker): string => f.string.alphanumeric({ length: 8, casing: 'lower' });
const dateTime: Maker = (f, inv) => isoSeconds(timeNear(inv, f));
const time: Maker = (f, inv) => `${timeNear(inv, f).toISOString().slice(11, 19)}Z`;
const email: Maker = (f) => f.internet.exampleEmail().toLowerCase();
const hostname: Maker = (f) => `${f.internet.domainWord()}.example.com`;
const url: Maker = (f, inv) => `https://example.com/${stemOf(inv)}/${slug(f)}`;
const uriReference: Maker = (f, inv) => `/${stemOf(inv)}/${slug(f)}`;
const password: Maker = (f, _inv, s) =>
  f.internet.password({ length: Math.max(lengthsOf(s).min, Math.min(16, lengthsOf(s).max)) });

/** A maker for each string format ajv-formats knows (binary is any string: the plain value serves). */
const BY_FORMAT: Record<string, Maker> = {
  'date-time': dateTime,
  'iso-date-time': dateTime,
  date: (f, inv) => timeNear(inv, f).toISOString().slice(0, 10),
  time,
  'iso-time': time,
  duration: (f) => `PT${f.number.int({ min: 1, max: 59 })}M`,
  email,
  'idn-email': email,
  hostname,
  'idn-hostname': hostname,
  ipv4: (f) => f.internet.ipv4(),
  ipv6: (f) => f.internet.ipv6(),
  uri: url,
  url,
  iri: url,
  'uri-reference': uriReference,
  'iri-reference': uriReference,
  'uri-template': (_f, inv) => `https://example.com/${stemOf(inv)}/{id}`,
  uuid: (f) => f.string.uuid(),
  'json-pointer': (_f, inv) => `/${stemOf(inv)}/0`,
  'relative-json-pointer': (_f, inv) => `0/${stemOf(inv)}`,
  regex: () => '^[a-z0-9-]+$',
  password,
  byte: (f, _inv, s) => base64Within(s, f),
};

/** An id: a UUID, or lower-case letters and digits where a UUID is too long. */
function idFor(f: Faker, s: Json): string {
  const { min, max } = lengthsOf(s);
  if (max >= 36 && min <= 36) return f.string.uuid();
  return f.string.alphanumeric({ length: Math.max(min, Math.min(max, 16)), casing: 'lower' });
}

/** A few places and streets: an address reads as one without faker's whole English locale. */
const CITIES = ['Springfield', 'Riverton', 'Lakeside', 'Fairview', 'Oakridge', 'Brookfield', 'Millbrook'];
const STREETS = ['Main Street', 'Oak Avenue', 'Elm Road', 'Station Road', 'Park Lane', 'High Street'];

const BY_KIND: Record<Kind, Maker> = {
  email,
  url,
  time: dateTime,
  id: (f, _inv, s) => idFor(f, s),
  version: (f, _inv, s) =>
    lengthsOf(s).max < 5 ? `v${f.number.int({ min: 1, max: 3 })}` : f.system.semver(),
  firstName: (f) => f.person.firstName(),
  lastName: (f) => f.person.lastName(),
  fullName: (f) => f.person.fullName(),
  username: (f) => f.internet.username().toLowerCase(),
  phone: (f) => f.phone.number({ style: 'international' }),
  country: (f, _inv, s) => f.location.countryCode(lengthsOf(s).min === 3 ? 'alpha-3' : 'alpha-2'),
  currency: (f) => f.finance.currencyCode(),
  ipv4: (f) => f.internet.ipv4(),
  ipv6: (f) => f.internet.ipv6(),
  hostname,
  mac: (f) => f.internet.mac(),
  // A commit's 40 digits where the lengths allow; else 16, within them.
  digest: (f, inv, s) => {
    const { min, max } = lengthsOf(s);
    const want = /sha$/i.test(inv.name ?? '') ? 40 : 16;
    return f.string.hexadecimal({ length: Math.max(min, Math.min(max, want)), casing: 'lower', prefix: '' });
  },
  city: (f) => f.helpers.arrayElement(CITIES),
  street: (f) => `${f.number.int({ min: 1, max: 999 })} ${f.helpers.arrayElement(STREETS)}`,
  postal: (f) => f.string.numeric(5),
  company: (f) => `${f.person.lastName()} ${f.helpers.arrayElement(['Ltd', 'Inc', 'GmbH', 'and Sons'])}`,
  text: (f) => f.lorem.sentence({ min: 4, max: 8 }),
};

/** A believable string for the schema's format, else its field's name; undefined when neither says. */
export function inventString(s: Json, inv: Invention): string | undefined {
  const format = typeof s.format === 'string' ? s.format : undefined;
  if (s.contentEncoding === 'base64') return base64Within(s, seeded(inv));
  const byFormat = format ? BY_FORMAT[format] : undefined;
  if (byFormat) return byFormat(seeded(inv), inv, s);
  const kind = kindOfName(inv.name);
  return kind ? BY_KIND[kind](seeded(inv), inv, s) : undefined;
}

/** A believable integer: a Unix time for `created`/`updated_at` (milliseconds where the name says), an id from 1. */
export function inventInteger(s: Json, inv: Invention): number | undefined {
  const kind = kindOfName(inv.name);
  if (kind === 'time') {
    const ms = timeNear(inv).getTime();
    return wordsOf(inv.name ?? '').some((w) => w === 'ms' || w.startsWith('milli'))
      ? ms
      : Math.floor(ms / 1000);
  }
  if (kind !== 'id') return undefined;
  const lo = Math.max(1, typeof s.minimum === 'number' ? Math.ceil(s.minimum) : 1);
  const hi = Math.min(99_999, typeof s.maximum === 'number' ? Math.floor(s.maximum) : 99_999);
  return lo <= hi ? seeded(inv).number.int({ min: lo, max: hi }) : undefined;
}

/**
 * A value the server sets as a record is stored: for a time field (`created`, `updated_at`), now in the field's
 * form (date-time, date, Unix seconds); an id, a believable one of its own; else, where the document gives no
 * example of the string (the caller takes the example), a believable value of its name. Valid against `schema`
 * as far as ./schema-fits.ts tells, else undefined.
 */
export function serverValue(given: Schema, name: string, nowMs: number, variant = 0): unknown {
  const schema = given as Json;
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  let value: unknown;
  if (kindOfName(name) === 'time' || schema.format === 'date-time' || schema.format === 'date') {
    const iso = new Date(nowMs).toISOString();
    if (types.includes('integer') || types.includes('number')) value = Math.floor(nowMs / 1000);
    else value = schema.format === 'date' ? iso.slice(0, 10) : iso;
  } else if (types.includes('integer')) {
    value = inventInteger(schema, { name, path: name, variant, seed: 0, nowMs });
  } else if (kindOfName(name) === 'id' || !exampled(schema)) {
    value = inventString(schema, { name, path: name, variant, seed: 0, nowMs });
  }
  return value !== undefined && fits(value, schema) ? value : undefined;
}

/**
 * Whether the document gives an example of the field: then its example says what the field holds better than
 * its name does (GitHub's `full_name` is `octocat/Hello-World`, not a person's), except for an id, which each
 * record must have its own of (drawn in the examples' form) and a time, which is now.
 */
function exampled(schema: Json): boolean {
  return schema.example !== undefined || (Array.isArray(schema.examples) && schema.examples.length > 0);
}
