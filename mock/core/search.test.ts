import type { Resource } from '../../spec/resources';
import type { OperationSpec } from '../../spec/compile';
import { searchFilter, searchView } from './search';

const r = {
  name: 'things',
  collectionPath: '/things',
  idType: 'integer',
  idSource: 'server',
  readOnly: [],
  operations: {},
  itemSchema: {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' }, colour: { type: 'string' } },
  },
  listEnvelope: { property: 'items' },
  paging: { page: 'page' },
} as Resource;
const items = [
  { id: 1, name: 'kite', colour: 'red' },
  { id: 2, name: 'ball', colour: 'blue' },
  { id: 3, name: 'kite', colour: 'green' },
];

describe('searchFilter (QUERY on a collection)', () => {
  it.each([
    ['a field equal', { name: 'kite' }, [1, 3]],
    ['two fields, both', { name: 'kite', colour: 'green' }, [3]],
    ['a list: any of its values', { colour: ['red', 'blue'] }, [1, 2]],
    ['a number sent as text', { id: '2' }, [2]],
    ['fields that name no property do not narrow', { limit: 1, sort: 'name' }, [1, 2, 3]],
    ['nested values do not narrow', { name: { contains: 'k' } }, [1, 2, 3]],
    ['no body: every item', undefined, [1, 2, 3]],
    ['nothing matches', { name: 'none' }, []],
  ])('%s', (_label, filter, ids) => {
    expect(items.filter(searchFilter(filter, r)).map((i) => i.id)).toEqual(ids);
  });
});

describe('searchView', () => {
  const op = (schema: unknown) =>
    ({ responses: new Map([['200', { status: '200', schema }]]) }) as unknown as OperationSpec;
  it('answers a plain array when the search documents one, else the list envelope; never paged', () => {
    expect(searchView(r, op({ type: 'array', items: { type: 'object' } }), 200)).toMatchObject({
      listEnvelope: undefined,
      paging: undefined,
    });
    expect(searchView(r, op({ type: 'object' }), 200)).toMatchObject({
      listEnvelope: { property: 'items' },
      paging: undefined,
    });
  });
});
