import fc from 'fast-check';
import { mergeCoverage, parseCoverageFile, toCoverageFile, type CoveragePair } from './coverage-file';

const pair = fc.record({
  operationId: fc.constantFrom('listPets', 'createPet', 'getPet'),
  method: fc.constantFrom('GET', 'post'),
  path: fc.constantFrom('/pets', '/pets/{petId}', '/pets/{id}'),
  status: fc.constantFrom('200', '201', '404'),
  count: fc.nat(5),
});
const key = (p: { method: string; path: string; status: string }) =>
  `${p.method.toUpperCase()} ${p.path.replace(/\{[^}]*\}/g, '{}')} ${p.status}`;

describe('mergeCoverage', () => {
  it('the union: documented pairs and observed pairs are the set unions of the inputs, counts add up', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(pair, { maxLength: 12 }), { maxLength: 5 }),
        (inputs: CoveragePair[][]) => {
          const merged = mergeCoverage(inputs);
          const all = inputs.flat();
          expect(new Set(merged.map(key))).toEqual(new Set(all.map(key)));
          expect(merged).toHaveLength(new Set(all.map(key)).size);
          expect(new Set(merged.filter((e) => e.observed).map(key))).toEqual(
            new Set(all.filter((p) => p.count > 0).map(key)),
          );
          for (const e of merged)
            expect(e.count).toBe(all.filter((p) => key(p) === key(e)).reduce((n, p) => n + p.count, 0));
        },
      ),
    );
  });

  it('a pair only one input observed counts as observed', () => {
    const runner = [{ operationId: 'a', method: 'GET', path: '/a', status: '404', count: 0 }];
    const proxy = [{ operationId: 'a', method: 'GET', path: '/a', status: '404', count: 3 }];
    expect(mergeCoverage([runner, proxy])).toEqual([{ ...proxy[0], observed: true }]);
  });
});

describe('the coverage file', () => {
  it('round-trips through JSON and refuses what is not one', () => {
    const file = toCoverageFile({
      target: 'http://x/v1',
      coverage: [{ operationId: 'a', method: 'GET', path: '/a', status: '200', observed: true, count: 2 }],
    });
    expect(parseCoverageFile(JSON.parse(JSON.stringify(file)))).toEqual({ ok: true, file });
    expect(parseCoverageFile({ rules: [] }).ok).toBe(false);
    expect(parseCoverageFile({ ...file, pairs: [{ ...file.pairs[0], count: -1 }] }).ok).toBe(false);
  });
});
