import { judgeDecrement } from '../probes/rate-limit-decrement';
import { rateLimitValuesProblem } from '../../spec/http/response-checks';
import { seededRandom } from '../send/check-context';
import { generateInvalid, generateValid, readOnlyProperties } from '../generate/values';
import { maskAuthorization, maskKnownSecrets } from '../../spec/mask';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow();
});
const newCategory = () => spec.byId.get('createCategory')?.requestBody?.schema ?? {};

describe('generated bodies', () => {
  it('are reproducible from the seed and valid against the schema', () => {
    const a = Array.from(
      { length: 5 },
      (
        (r) => () =>
          generateValid(newCategory(), r, 'p')
      )(seededRandom(7)),
    );
    const b = Array.from(
      { length: 5 },
      (
        (r) => () =>
          generateValid(newCategory(), r, 'p')
      )(seededRandom(7)),
    );
    expect(a).toEqual(b);
    const validate = spec.byId.get('createCategory')?.requestBody?.validate;
    for (const body of a) expect(validate?.(body)).toBe(true);
    for (const body of a) expect(String((body as { name: string }).name)).toMatch(/^p-name-/);
  });

  it('break the schema in each invalid case', () => {
    const validate = spec.byId.get('createCategory')?.requestBody?.validate;
    const cases = generateInvalid(newCategory(), seededRandom(1), 'p', 10);
    expect(cases.length).toBe(3); // name missing, name wrong type, description wrong type
    for (const c of cases) expect(validate?.(c.body)).toBe(false);
  });

  it('finds the read-only id of the Category response', () => {
    expect(readOnlyProperties(spec.byId.get('createCategory')?.responses.get('201')?.schema)).toEqual(['id']);
  });
});

describe('rate-limit values', () => {
  const NOW = 1_700_000_000_000;
  const res = (limit: string, remaining: string, reset: string) => ({
    status: 200,
    body: '',
    headers: { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': reset },
  });
  it.each([
    [res('60', '59', String(NOW / 1000 + 30)), undefined],
    [res('60', '61', String(NOW / 1000 + 30)), /above/],
    [res('60', '1', String(NOW / 1000 - 60)), /in the past/],
    [res('60', '1', String(NOW + 30_000)), /more than a day ahead/],
    [res('60', 'x', '1'), null],
  ])('judges %j', (response, expected) => {
    const problem = rateLimitValuesProblem(response, NOW);
    if (expected === undefined || expected === null) expect(problem).toBe(expected);
    else expect(problem).toMatch(expected);
  });

  it.each([
    [[5, 4, 3], true],
    [[5, 3, 2], true], // someone else shares the key
    [[5, 5, 5], false],
    [[5, 3, 1], false],
  ])('countdown %j holds: %s', (remaining, ok) => {
    const samples = remaining.map((r) => ({ remaining: r, reset: '1', exchange: {} as never }));
    expect(judgeDecrement(samples).ok).toBe(ok);
  });

  it('ignores a rise across a window reset', () => {
    const samples = [
      { remaining: 1, reset: '1', exchange: {} as never },
      { remaining: 59, reset: '2', exchange: {} as never },
      { remaining: 58, reset: '2', exchange: {} as never },
    ];
    expect(judgeDecrement(samples).ok).toBe(true);
  });
});

describe('masking', () => {
  it.each([
    ['Bearer free-demo-key', 'Bearer free…(masked)'],
    ['Basic dXNlcjpwYXNz', 'Basic dXNl…(masked)'],
    ['Bearer ', 'Bearer '],
  ])('%s -> %s', (value, masked) => {
    expect(maskAuthorization(value)).toBe(masked);
  });
  it('masks a key echoed in a body', () => {
    expect(maskKnownSecrets('{"key":"free-demo-key"}', ['free-demo-key'])).toBe('{"key":"free…(masked)"}');
  });
});
