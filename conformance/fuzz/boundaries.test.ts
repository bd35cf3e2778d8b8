import { boundaryProbes } from './boundaries';

const values = (probes: ReturnType<typeof boundaryProbes>) =>
  Object.fromEntries(probes.map((p) => [p.name, p.value]));

it('gives both sides of string lengths, shaped like the sample', () => {
  const v = values(boundaryProbes({ type: 'string', minLength: 2, maxLength: 4 }, 'abc'));
  expect(v).toMatchObject({ minLength: 'ab', 'minLength-1': 'a', maxLength: 'abca', 'maxLength+1': 'abcab' });
  expect(v['type:integer']).toBe(7);
  expect(v['type:null']).toBeNull();
});

it('gives both sides of inclusive and exclusive bounds', () => {
  const v = values(boundaryProbes({ type: 'integer', exclusiveMinimum: 0, maximum: 10 }, 5));
  expect(v).toMatchObject({
    exclusiveMinimum: 0,
    'exclusiveMinimum+step': 1,
    maximum: 10,
    'maximum+step': 11,
  });
  expect(v['not-an-integer']).toBe(1.5);
  expect(v['type:numeric-string']).toBe('12');
});

it('gives each enum value and one outside, item counts and formats', () => {
  expect(values(boundaryProbes({ type: 'string', enum: ['a', 'b'] }, 'a'))).toMatchObject({
    'enum[0]': 'a',
    'enum[1]': 'b',
    'outside-enum': 'a-not-in-enum',
  });
  const arr = values(boundaryProbes({ type: 'array', items: { type: 'string' }, maxItems: 2 }, ['t']));
  expect(arr['maxItems+1']).toEqual(['t', 't', 't']);
  const email = values(boundaryProbes({ type: 'string', format: 'email' }, 'a@b.c'));
  expect(email['format:email-invalid']).toBe('not-an-email');
});
