/**
 * Request bodies generated from a schema with a seeded random source: valid ones, and mutations that
 * break exactly one constraint (a required property dropped, a property of the wrong type).
 */
import type { OpenAPIV3_1 } from 'openapi-types';

type Schema = OpenAPIV3_1.SchemaObject;

export interface BodyCase {
  label: string;
  body: unknown;
}

const WORDS = ['dog', 'cat', 'rabbit', 'hamster', 'parrot', 'ferret', 'turtle', 'gecko', 'canary', 'pony'];

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** A value valid against a (simple) schema; strings carry the run prefix so the data is recognisable. */
export function generateValid(schema: Schema, random: () => number, prefix: string): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum && schema.enum.length > 0) return pick(schema.enum, random);
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    const required = new Set(schema.required ?? []);
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      const prop = sub as Schema;
      if (prop.readOnly) continue;
      if (required.has(name) || random() < 0.5) out[name] = generateValid(prop, random, `${prefix}-${name}`);
    }
    return out;
  }
  if (type === 'array') {
    const items = (schema as { items?: Schema }).items ?? {};
    return [generateValid(items, random, prefix)];
  }
  if (type === 'integer') return Math.floor(random() * 1000);
  if (type === 'number') return Math.round(random() * 100000) / 100;
  if (type === 'boolean') return random() < 0.5;
  return `${prefix}-${pick(WORDS, random)}-${Math.floor(random() * 10000)}`;
}

/** A value of a JSON type the schema does not allow. */
function wrongTypeValue(schema: Schema, random: () => number): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const candidates: unknown[] =
    type === 'string'
      ? [42, true, null, ['x'], { x: 1 }]
      : type === 'integer' || type === 'number'
        ? ['seven', true, null, [1]]
        : type === 'boolean'
          ? ['yes', 1, null]
          : ['not-an-object', 7];
  return pick(candidates, random);
}

/** Schema-violating variants of a valid object body, `count` of them chosen by the random source. */
export function generateInvalid(
  schema: Schema,
  random: () => number,
  prefix: string,
  count: number,
): BodyCase[] {
  const base = generateValid(schema, random, prefix) as Record<string, unknown>;
  const cases: BodyCase[] = [];
  for (const name of schema.required ?? []) {
    const body = { ...base };
    delete body[name];
    cases.push({ label: `required "${name}" missing`, body });
  }
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    const prop = sub as Schema;
    if (prop.readOnly) continue;
    const value = wrongTypeValue(prop, random);
    cases.push({ label: `"${name}" is ${JSON.stringify(value)}`, body: { ...base, [name]: value } });
  }
  return shuffle(cases, random).slice(0, count);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Names of readOnly properties of a (response) schema: the server assigns them, the client must not. */
export function readOnlyProperties(schema: Schema | undefined): string[] {
  return Object.entries(schema?.properties ?? {})
    .filter(([, sub]) => (sub as Schema).readOnly === true)
    .map(([name]) => name);
}
