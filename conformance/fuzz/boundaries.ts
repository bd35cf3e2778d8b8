/**
 * Pure: one schema -> the values on both sides of each constraint it states (lengths, bounds and their exclusive
 * forms, item counts, each enum value and one outside, formats, null, wrong JSON types). Which side a value is on
 * is not decided here: the operation's own validator says it (fuzz/cases.ts), so the two never disagree.
 */
import { mainType } from '../execute/generate-bodies';
import { arrayItems, typesOf, type Schema } from '../../spec/schema-shape';

export interface Probe {
  /** Short, stable, for the evidence: `maxLength+1`, `enum[2]`, `format:email-invalid`. */
  name: string;
  value: unknown;
}

const FORMAT_VALUES: Record<string, { valid: string; invalid: string }> = {
  email: { valid: 'fuzz.case@example.com', invalid: 'not-an-email' },
  uuid: { valid: '123e4567-e89b-42d3-a456-426614174000', invalid: 'not-a-uuid' },
  'date-time': { valid: '2024-02-29T12:30:00Z', invalid: '2024-13-45T99:00:00Z' },
  date: { valid: '2024-02-29', invalid: '2023-02-29' },
  uri: { valid: 'https://example.com/fuzz', invalid: 'not a uri' },
};

const num = (s: Record<string, unknown>, k: string): number | undefined =>
  typeof s[k] === 'number' ? (s[k] as number) : undefined;

/** A string of `length` characters shaped like `sample` (its start kept so that a pattern still matches). */
function stringOf(sample: unknown, length: number): string {
  const base = typeof sample === 'string' && sample.length > 0 ? sample : 'x';
  return base.repeat(Math.ceil(length / base.length) + 1).slice(0, Math.max(0, length));
}

function lengthProbes(s: Record<string, unknown>, sample: unknown): Probe[] {
  const out: Probe[] = [];
  const min = num(s, 'minLength');
  const max = num(s, 'maxLength');
  if (min !== undefined) out.push({ name: `minLength`, value: stringOf(sample, min) });
  if (min !== undefined && min > 0) out.push({ name: `minLength-1`, value: stringOf(sample, min - 1) });
  if (max !== undefined) out.push({ name: `maxLength`, value: stringOf(sample, max) });
  if (max !== undefined) out.push({ name: `maxLength+1`, value: stringOf(sample, max + 1) });
  return out;
}

function numberProbes(s: Record<string, unknown>, integer: boolean): Probe[] {
  const step = integer ? 1 : 0.5;
  const min = num(s, 'minimum');
  const max = num(s, 'maximum');
  const exMin = num(s, 'exclusiveMinimum');
  const exMax = num(s, 'exclusiveMaximum');
  const pairs: Array<[string, number | undefined, number]> = [
    ['minimum', min, 0],
    ['minimum-step', min, -step],
    ['maximum', max, 0],
    ['maximum+step', max, step],
    ['exclusiveMinimum', exMin, 0],
    ['exclusiveMinimum+step', exMin, step],
    ['exclusiveMaximum', exMax, 0],
    ['exclusiveMaximum-step', exMax, -step],
  ];
  const out: Probe[] = pairs
    .filter((p): p is [string, number, number] => p[1] !== undefined)
    .map(([name, bound, delta]) => ({ name, value: bound + delta }));
  const at = (name: string, value: number) => out.push({ name, value });
  if (integer) at('not-an-integer', (min ?? exMin ?? 0) + 1.5);
  return out;
}

function arrayProbes(s: Record<string, unknown>, sample: unknown): Probe[] {
  const items = Array.isArray(sample) && sample.length > 0 ? sample : [];
  const first: unknown = items[0];
  const sized = (n: number) =>
    Array.from({ length: n }, (_, i) => items[i % Math.max(1, items.length)] ?? first);
  const out: Probe[] = [];
  const min = num(s, 'minItems');
  const max = num(s, 'maxItems');
  if (items.length === 0) return out;
  if (min !== undefined && min > 0) out.push({ name: 'minItems-1', value: sized(min - 1) });
  if (max !== undefined) out.push({ name: 'maxItems', value: sized(max) });
  if (max !== undefined) out.push({ name: 'maxItems+1', value: sized(max + 1) });
  return out;
}

/** Every value of the schema's enum, and one outside it of the same type. */
function enumProbes(values: unknown[]): Probe[] {
  const out: Probe[] = values.map((value, i) => ({ name: `enum[${i}]`, value }));
  const strings = values.every((v) => typeof v === 'string');
  const numbers = values.every((v) => typeof v === 'number');
  if (strings) out.push({ name: 'outside-enum', value: `${String(values[0] ?? '')}-not-in-enum` });
  if (numbers) out.push({ name: 'outside-enum', value: Math.max(...(values as number[])) + 1 });
  return out;
}

const WRONG: Array<[string, unknown]> = [
  ['string', 'wrong-type'],
  ['integer', 7],
  ['boolean', true],
  ['array', []],
  ['object', {}],
  ['null', null],
];

/** A value of each JSON type the schema does not name (numbers written as strings included: "12"). */
function typeProbes(schema: Schema): Probe[] {
  const allowed = new Set(typesOf(schema));
  const type = mainType(schema);
  if (type) allowed.add(type);
  if (allowed.size === 0) return [];
  if (allowed.has('integer') || allowed.has('number')) allowed.add('integer').add('number');
  const out = WRONG.filter(([t]) => !allowed.has(t)).map(([t, value]) => ({ name: `type:${t}`, value }));
  if (allowed.has('integer') && !allowed.has('string'))
    out.push({ name: 'type:numeric-string', value: '12' });
  return out;
}

/** The probes of one schema; `sample` is a valid value of it (what lengths and item lists are made from). */
export function boundaryProbes(schema: Schema, sample: unknown): Probe[] {
  const s = schema as Record<string, unknown>;
  const type = mainType(schema);
  const out: Probe[] = [];
  if (Array.isArray(s.enum)) out.push(...enumProbes(s.enum));
  if (type === 'string') out.push(...lengthProbes(s, sample));
  if (type === 'integer' || type === 'number') out.push(...numberProbes(s, type === 'integer'));
  if (type === 'array' && arrayItems(schema)) out.push(...arrayProbes(s, sample));
  const format = typeof s.format === 'string' ? FORMAT_VALUES[s.format] : undefined;
  if (format && type === 'string') {
    out.push({ name: `format:${String(s.format)}`, value: format.valid });
    out.push({ name: `format:${String(s.format)}-invalid`, value: format.invalid });
  }
  out.push(...typeProbes(schema));
  return out;
}
