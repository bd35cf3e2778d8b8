import path from 'node:path';
import { loadSpecOrThrow, type OperationSpec } from '../../spec/load';
import { seededRandom } from '../execute/check-context';
import { boundaryCases, type CaseSource } from './cases';
import { randomCases } from './random';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-target-31.yaml');
let create: OperationSpec;
beforeAll(async () => {
  const spec = await loadSpecOrThrow(SPEC);
  create = spec.byId.get('createMember') as OperationSpec;
});
const source = (seed: number): CaseSource => ({ random: seededRandom(seed), prefix: 'fz', adjust: (b) => b });
const expectations = (seed: number) =>
  Object.fromEntries(
    boundaryCases(create, source(seed)).map((c) => [c.label.replace(/ \(.*$/, ''), c.expect]),
  );

it('gives each boundary the side the document puts it on', () => {
  expect(expectations(1)).toMatchObject({
    'body age exclusiveMinimum': 'reject',
    'body age exclusiveMinimum+step': 'accept',
    'body age maximum': 'accept',
    'body age maximum+step': 'reject',
    'body score exclusiveMaximum': 'reject',
    'body score minimum': 'accept',
    'body name maxLength': 'accept',
    'body name maxLength+1': 'reject',
    'body tags maxItems': 'accept',
    'body tags maxItems+1': 'reject',
    'body plan enum[2]': 'accept',
    'body plan outside-enum': 'reject',
    'body email format:email': 'accept',
    'body email format:email-invalid': 'reject',
    'body email missing': 'reject',
    'body age type:numeric-string': 'reject',
    'body the body with an extra property': 'reject',
    'body not JSON': 'reject',
  });
});

it('draws the same random cases from the same seed, other ones from another', () => {
  const draw = (seed: number) => JSON.stringify(randomCases(create, source(seed), 30));
  expect(draw(3)).toBe(draw(3));
  expect(draw(3)).not.toBe(draw(4));
  const cases = randomCases(create, source(3), 30);
  expect(cases.filter((c) => c.expect === 'accept').length).toBeGreaterThan(5);
  expect(cases.filter((c) => c.expect === 'reject').length).toBeGreaterThan(5);
});
