/**
 * Pure: a request body schema -> named cases, each breaking one thing (or none): a required property missing,
 * a type violated, a bound crossed (minLength/maxLength, minimum/maximum, enum), an unknown property, malformed
 * JSON, a body that is not an object. The case name is the last part of its rule id (`body.<op>.<case>`).
 */
import { objectShape, type Schema } from '../../spec/schema-shape';
import { generateValid, mainType, wrongTypeValue } from './values';
import type { RuleKind } from '../types';

export interface BodyCase {
  /** `valid`, `missing-name`, `type-tag`, `max-length-tag`, `enum-status`, `malformed-json`, ... */
  name: string;
  /** What the case does, for the rule title and the evidence. */
  label: string;
  /** A JSON value to send, or `raw` text. */
  body?: unknown;
  raw?: string;
  expect: 'accept' | 'reject';
  kind: RuleKind;
}

const slug = (name: string): string =>
  name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'property';

/** Every case of `schema`; `random` and `prefix` make the valid base body. */
export function bodyCases(schema: Schema, random: () => number, prefix: string): BodyCase[] {
  const shape = objectShape(schema);
  const full = generateValid(schema, random, prefix, { full: true });
  const minimal = generateValid(schema, random, `${prefix}-min`);
  const cases: BodyCase[] = [
    {
      name: 'valid',
      label: 'a valid body with every property',
      body: full,
      expect: 'accept',
      kind: 'contract',
    },
    {
      name: 'valid',
      label: 'a valid body with the required properties',
      body: minimal,
      expect: 'accept',
      kind: 'contract',
    },
    {
      name: 'malformed-json',
      label: 'a body that is not JSON',
      raw: '{"unterminated": ',
      expect: 'reject',
      kind: 'contract',
    },
  ];
  if (!shape) return cases;
  const base = full as Record<string, unknown>;
  const reject = (name: string, label: string, body: unknown, kind: RuleKind = 'contract') =>
    cases.push({ name, label, body, expect: 'reject', kind });
  reject('not-an-object', 'a JSON array instead of an object', [base]);
  for (const name of shape.required) {
    const body = { ...base };
    delete body[name];
    reject(`missing-${slug(name)}`, `required "${name}" missing`, body);
  }
  for (const [name, prop] of Object.entries(shape.properties)) {
    if ((prop as { readOnly?: unknown }).readOnly === true || shape.uncertain?.has(name)) continue;
    const wrong = wrongTypeValue(prop, random);
    if (wrong !== undefined)
      reject(`type-${slug(name)}`, `"${name}" is ${JSON.stringify(wrong)}`, { ...base, [name]: wrong });
    for (const bound of boundCases(prop))
      reject(`${bound.name}-${slug(name)}`, `"${name}" ${bound.label}`, { ...base, [name]: bound.value });
  }
  // Unknown properties break the schema only where it says additionalProperties: false; elsewhere rejecting them is
  // this project's choice (the mock's default), so the rule is an assumption.
  const unknown = `${prefix.replace(/[^A-Za-z0-9]/g, '')}Unknown`;
  reject(
    'unknown-property',
    `an unknown property${shape.additional === false ? '' : ' (the schema does not forbid it)'}`,
    { ...base, [unknown]: 1 },
    shape.additional === false ? 'contract' : 'assumption',
  );
  return cases;
}

interface Bound {
  name: string;
  label: string;
  value: unknown;
}

/** One value just outside each bound the property schema states. */
export function boundCases(prop: Schema): Bound[] {
  const s = prop as Record<string, unknown>;
  const type = mainType(prop);
  const out: Bound[] = [];
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const minLength = num('minLength');
  const maxLength = num('maxLength');
  if (type === 'string' && minLength !== undefined && minLength > 0)
    out.push({
      name: 'min-length',
      label: `shorter than minLength ${minLength}`,
      value: 'x'.repeat(minLength - 1),
    });
  if (type === 'string' && maxLength !== undefined)
    out.push({
      name: 'max-length',
      label: `longer than maxLength ${maxLength}`,
      value: 'x'.repeat(maxLength + 1),
    });
  const step = type === 'integer' ? 1 : 0.5;
  const minimum =
    num('minimum') ??
    (num('exclusiveMinimum') !== undefined ? (num('exclusiveMinimum') as number) + step : undefined);
  const maximum =
    num('maximum') ??
    (num('exclusiveMaximum') !== undefined ? (num('exclusiveMaximum') as number) - step : undefined);
  if ((type === 'integer' || type === 'number') && minimum !== undefined)
    out.push({ name: 'minimum', label: `below minimum ${minimum}`, value: minimum - step });
  if ((type === 'integer' || type === 'number') && maximum !== undefined)
    out.push({ name: 'maximum', label: `above maximum ${maximum}`, value: maximum + step });
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string'))
    out.push({
      name: 'enum',
      label: `not one of ${(s.enum as string[]).join(', ')}`,
      value: 'not-in-the-enum',
    });
  return out;
}
