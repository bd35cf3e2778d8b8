import { choose } from './sweep';

describe('the sweep’s choice of documents', () => {
  const all = ['a/x.json', 'b/y.json', 'c/z.json'];
  it('takes a list of substrings in ONLY (the documents that failed last time)', () => {
    expect(choose(all, { seed: 1, only: 'x.json,c/' })).toEqual(['a/x.json', 'c/z.json']);
    expect(choose(all, { seed: 1, only: 'y' })).toEqual(['b/y.json']);
    expect(choose(all, { seed: 1 })).toEqual(all);
  });
});
