import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { loadSpecOrThrow } from '../../spec/load';
import type { Schema } from '../../spec/schema-shape';
import { seededRandom } from '../send/check-context';
import { generateValid } from './values';

it('fills optional properties until minProperties is met (a merge patch must change something)', () => {
  const schema = {
    type: 'object',
    minProperties: 2,
    properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } },
  } as const;
  for (let seed = 0; seed < 50; seed++) {
    const body = generateValid(schema, seededRandom(seed), 'p') as Record<string, unknown>;
    expect(Object.keys(body).length).toBeGreaterThanOrEqual(2);
  }
});

describe('property: a generated request body is valid against the request validator (ajv)', () => {
  const ROOT = path.join(__dirname, '..', '..');
  const WILD = path.join(ROOT, 'fixtures', 'specs', 'wild');
  const files = [
    ...fs
      .readdirSync(WILD)
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => path.join(WILD, f)),
    path.join(WILD, 'answers', 'public-30.yaml'),
    path.join(ROOT, 'spec', 'openapi.yaml'),
  ];
  const bodies: Array<{ where: string; schema: Schema; validate: ValidateFunction }> = [];

  beforeAll(async () => {
    for (const f of files)
      for (const op of (await loadSpecOrThrow(f)).operations)
        if (op.requestBody && op.requestBody.kind !== 'other')
          bodies.push({
            where: `${path.basename(f)} ${op.operationId}`,
            schema: op.requestBody.schema,
            validate: op.requestBody.validate,
          });
  });

  it('for every request body of every wild document, any seed, full or not', () => {
    expect(bodies.length).toBeGreaterThan(30);
    expect(bodies.map((b) => b.where)).toContain('public-30.yaml planEnvironment');
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.integer(), fc.boolean(), (i, seed, full) => {
        const { where, schema, validate } = bodies[i % bodies.length] as (typeof bodies)[number];
        const body = generateValid(schema, seededRandom(seed), 'p', { full });
        if (!validate(body))
          throw new Error(
            `${where}: ${JSON.stringify(validate.errors)} ${JSON.stringify(body).slice(0, 300)}`,
          );
      }),
      { numRuns: 600, seed: 30 },
    );
  });

  it('patterns in nested strings, formats with lengths, multiples and exclusive bounds (planEnvironment)', () => {
    const plan = bodies.find((b) => b.where === 'public-30.yaml planEnvironment');
    if (!plan) throw new Error('no planEnvironment');
    for (let seed = 0; seed < 50; seed++) {
      const body = generateValid(plan.schema, seededRandom(seed), 'p', { full: seed % 2 === 0 });
      expect([seed, plan.validate(body), plan.validate.errors ?? null]).toEqual([seed, true, null]);
    }
  });

  it('still varies: two seeds give two bodies', () => {
    const plan = bodies.find((b) => b.where === 'public-30.yaml planEnvironment') as (typeof bodies)[number];
    const a = generateValid(plan.schema, seededRandom(1), 'p', { full: true });
    const b = generateValid(plan.schema, seededRandom(2), 'p', { full: true });
    expect(a).not.toEqual(b);
  });
});
