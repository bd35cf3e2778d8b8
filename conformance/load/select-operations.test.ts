import { syntheticDocument } from '../../bench/lib/synthetic-document';
import { compileSpec, type LoadedSpec } from '../../spec/load';
import { pathGlob, selectOperations } from './select-operations';

const spec = compileSpec('synthetic.json', syntheticDocument(50), false) as LoadedSpec;
const ids = (r: ReturnType<typeof selectOperations>) => (r.ok ? [...(r.ids ?? [])].sort() : r.error);

describe('pathGlob', () => {
  it.each([
    ['/r1', '/r1', true],
    ['/r*', '/r12', true],
    ['/r*', '/r1/{id}', false],
    ['/r1/*', '/r1/{id}', true],
    ['/**', '/r1/{id}', true],
    ['/r1.', '/r1x', false],
  ])('%s on %s: %s', (glob, path, expected) => {
    expect(pathGlob(glob).test(path)).toBe(expected);
  });
});

describe('selectOperations', () => {
  it('selects everything when no filter is given (null)', () => {
    expect(selectOperations(spec, {})).toEqual({ ok: true, ids: null });
  });

  it('selects by operationId, by the document tags and by path glob', () => {
    expect(ids(selectOperations(spec, { operations: ['read3', 'list4'] }))).toEqual(['list4', 'read3']);
    expect(ids(selectOperations(spec, { tags: ['group3'] }))).toEqual([
      'create3',
      'delete3',
      'list3',
      'read3',
      'replace3',
    ]);
    expect(ids(selectOperations(spec, { paths: ['/r1/*'] }))).toEqual(['delete1', 'read1', 'replace1']);
  });

  it('keeps what matches every kind of filter given', () => {
    expect(ids(selectOperations(spec, { tags: ['group3'], paths: ['/r*'] }))).toEqual(['create3', 'list3']);
  });

  it.each([
    [{ operations: ['nope'] }, /--operation nope: no such operationId \(the document has list0, /],
    [{ tags: ['nope'] }, /--tag nope: no operation has this tag \(tags: group0, /],
    [{ paths: ['/nope/*'] }, /--path \/nope\/\*: matches no path/],
    [{ operations: ['read3'], tags: ['group4'] }, /together select no operation/],
  ])('names what matches nothing: %j', (filter, message) => {
    const r = selectOperations(spec, filter);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});
