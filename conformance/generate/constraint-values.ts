/**
 * Pure: the values on both sides of each constraint of one schema (lengths, bounds and their exclusive forms, item
 * counts, enums, formats, null, a JSON type it does not allow). Which side a value is on is not decided here: the
 * document's own validator classifies each one (the fuzz boundaries of a body, the parameter cases of a request).
 */

type Json = Record<string, unknown>;

export const FORMAT_VALUES: Record<string, [valid: string, invalid: string]> = {
  email: ['fuzz@example.com', 'not-an-email'],
  uuid: ['00000000-0000-4000-8000-000000000001', 'not-a-uuid'],
  'date-time': ['2024-01-01T00:00:00Z', '2024-13-45T99:00:00Z'],
  date: ['2024-01-01', '2024-13-45'],
  uri: ['https://example.com/fuzz', 'not a uri'],
  ipv4: ['192.0.2.1', '999.0.0.1'],
};

const WRONG_TYPES: Record<string, unknown> = {
  string: 42,
  integer: 'forty-two',
  number: 'forty-two',
  boolean: 'true',
  array: { not: 'an array' },
  object: ['not an object'],
};

const typeOf = (s: Json): string | undefined =>
  typeof s.type === 'string'
    ? s.type
    : Array.isArray(s.type)
      ? (s.type.find((t) => t !== 'null') as string)
      : undefined;

/** A plain valid item of an items schema (its first enum value, a short string, its minimum), if simple. */
function sampleItem(items: unknown): unknown {
  if (!items || typeof items !== 'object') return undefined;
  const i = items as Json;
  if (Array.isArray(i.enum)) return i.enum[0];
  const type = typeOf(i);
  if (type === 'string' && i.format === undefined && i.pattern === undefined)
    return 'x'.repeat(Math.max(1, typeof i.minLength === 'number' ? i.minLength : 1));
  if (type === 'integer' || type === 'number') return typeof i.minimum === 'number' ? i.minimum : 1;
  if (type === 'boolean') return true;
  return undefined;
}

/** Values on both sides of each constraint of one property's schema. */
export function valuesFor(s: Json, base: unknown): Array<{ label: string; value: unknown }> {
  const out: Array<{ label: string; value: unknown }> = [];
  const add = (label: string, value: unknown) => out.push({ label, value });
  const str = typeof base === 'string' ? base : 'x';
  const pad = (n: number) => (n <= 0 ? '' : str.repeat(Math.ceil(n / Math.max(1, str.length))).slice(0, n));
  if (typeof s.minLength === 'number') {
    add(`minLength ${s.minLength}`, pad(s.minLength));
    if (s.minLength > 0) add(`minLength ${s.minLength} - 1`, pad(s.minLength - 1));
  }
  if (typeof s.maxLength === 'number') {
    add(`maxLength ${s.maxLength}`, pad(s.maxLength));
    add(`maxLength ${s.maxLength} + 1`, pad(s.maxLength + 1));
  }
  const step = typeOf(s) === 'integer' ? 1 : 0.5;
  for (const [key, dir] of [
    ['minimum', -1],
    ['maximum', 1],
  ] as const) {
    const bound = s[key];
    if (typeof bound !== 'number') continue;
    add(`${key} ${bound}`, bound);
    add(`${key} ${bound} ${dir < 0 ? '-' : '+'} ${step}`, bound + dir * step);
  }
  for (const [key, dir] of [
    ['exclusiveMinimum', -1],
    ['exclusiveMaximum', 1],
  ] as const) {
    const bound = s[key];
    if (typeof bound !== 'number') continue;
    add(`${key} ${bound}`, bound);
    add(`${key} ${bound} ${dir < 0 ? '+' : '-'} ${step}`, bound - dir * step);
  }
  // An optional array the valid body left out still gets its item count probed, with an item of its own.
  const item = Array.isArray(base) && base.length > 0 ? base[0] : sampleItem(s.items);
  if (typeof s.maxItems === 'number' && item !== undefined) {
    add(
      `maxItems ${s.maxItems}`,
      Array.from({ length: s.maxItems }, () => item),
    );
    add(
      `maxItems ${s.maxItems} + 1`,
      Array.from({ length: s.maxItems + 1 }, () => item),
    );
  }
  if (typeof s.minItems === 'number' && s.minItems > 0) add(`minItems ${s.minItems} - 1`, []);
  if (Array.isArray(s.enum)) {
    for (const v of s.enum) add(`enum ${JSON.stringify(v)}`, v);
    add('a value outside the enum', typeof s.enum[0] === 'number' ? -987654321 : 'not-in-the-enum');
  }
  if (typeof s.format === 'string' && FORMAT_VALUES[s.format]) {
    const [valid, invalid] = FORMAT_VALUES[s.format] as [string, string];
    add(`format ${s.format}`, valid);
    add(`not a ${s.format}`, invalid);
  }
  add('null', null);
  const type = typeOf(s);
  if (type && type in WRONG_TYPES) add(`not a${/^[aeiou]/.test(type) ? 'n' : ''} ${type}`, WRONG_TYPES[type]);
  // A number written as a string: a server that converts it instead of refusing it is caught.
  if (type === 'integer' || type === 'number') add(`a ${type} written as a string`, '12');
  return out;
}
