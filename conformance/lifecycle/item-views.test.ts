import type { Resource } from '../../spec/resource-types';
import { listShows, namedFields } from './item-views';

const books = {
  name: 'books',
  idField: 'id',
  itemSchema: {
    allOf: [{ type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } }],
  },
} as unknown as Resource;

describe('namedFields', () => {
  it('keeps what the answer names (through allOf), drops what it never shows', () => {
    expect(namedFields(books, { title: 'Dune', email: 'a@b.c' })).toEqual({ title: 'Dune' });
    expect(namedFields(books, 'not an item')).toEqual({});
  });
});

describe('listShows', () => {
  it('finds the id in a bare list or in an envelope list, as text', () => {
    expect(listShows(books, [{ id: 7 }], '7')).toBe(true);
    const enveloped = { ...books, listEnvelope: { property: 'data' } } as Resource;
    expect(listShows(enveloped, { data: [{ id: 1 }, { id: 7 }] }, '7')).toBe(true);
    expect(listShows(enveloped, { data: [{ id: 1 }] }, '7')).toBe(false);
    expect(listShows(books, { error: 'x' }, '7')).toBe(false);
  });

  it('reads each listed key as the create does: a nested field, a composite key', () => {
    const clusters = {
      name: 'clusters',
      itemParam: 'name',
      key: [{ pointer: '/metadata/name', param: 'name' }],
    } as unknown as Resource;
    expect(listShows(clusters, [{ metadata: { name: 'blue' } }], 'blue')).toBe(true);
    expect(listShows(clusters, [{ name: 'blue', metadata: { name: 'red' } }], 'blue')).toBe(false);
    const repos = {
      name: 'repos',
      key: [
        { pointer: '/owner/login', param: 'owner' },
        { pointer: '/name', param: 'repo' },
      ],
    } as unknown as Resource;
    expect(listShows(repos, [{ owner: { login: 'octo' }, name: 'cat' }], 'octo/cat')).toBe(true);
    expect(listShows(repos, [{ owner: { login: 'octo' }, name: 'dog' }], 'octo/cat')).toBe(false);
  });
});
