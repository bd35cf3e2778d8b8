import { choose, runOrder, sliceOf } from './sweep';

describe('the sweep’s choice of documents', () => {
  const all = ['a/x.json', 'b/y.json', 'c/z.json'];
  it('takes a list of substrings in ONLY (the documents that failed last time)', () => {
    expect(choose(all, { seed: 1, only: 'x.json,c/' })).toEqual(['a/x.json', 'c/z.json']);
    expect(choose(all, { seed: 1, only: 'y' })).toEqual(['b/y.json']);
    expect(choose(all, { seed: 1 })).toEqual(all);
  });
});

describe('SLICE', () => {
  it('reads a:b, a: and :b as Array.slice does, and refuses anything else', () => {
    expect(sliceOf('0:150')).toEqual([0, 150]);
    expect(sliceOf('150:')).toEqual([150, Infinity]);
    expect(sliceOf(':40')).toEqual([0, 40]);
    expect(() => sliceOf('150')).toThrow(/SLICE=150/);
    expect(() => sliceOf('9:3')).toThrow(/a < b/);
  });
  it('takes a part of the seeded run order, so parts run apart make the whole sample', () => {
    const order = runOrder(choose(['a', 'b', 'c', 'd', 'e', 'f'], { seed: 5, sample: 5 }), 5);
    const parts = [sliceOf(':2'), sliceOf('2:')].flatMap(([a, b]) => order.slice(a, b));
    expect(parts).toEqual(order);
  });
});
