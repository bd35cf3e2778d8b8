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
