import type { Resource } from '../../spec/resources';
import type { OperationSpec } from '../../spec/compile';
import { queryFilter, searchFilter, searchView } from './search';

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

describe('queryFilter (a GET whose query parameters name properties of the item)', () => {
  const stated = {
    ...r,
    itemSchema: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        colour: { type: 'string' },
        state: { type: 'string', enum: ['open', 'closed'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
  } as Resource;
  const list = [
    { id: 1, colour: 'red', state: 'open', tags: ['a'] },
    { id: 2, colour: 'blue', state: 'closed', tags: ['b'] },
    { id: 3, state: 'open' },
  ];
  const op = (...names: [string, object][]) =>
    ({
      queryParams: names.map(([name, schema]) => ({ name, in: 'query', schema })),
    }) as unknown as OperationSpec;
  const str = { type: 'string' };
  it.each([
    ['an enum value narrows', { state: ['closed'] }, [2]],
    ['a value outside the enum (all) does not', { state: ['all'] }, [1, 2, 3]],
    ['a plain field: equal values only, none where it is missing', { colour: ['red'] }, [1]],
    ['a list parameter: any of its values', { colour: ['red,blue'] }, [1, 2]],
    ['a property that is a list does not narrow', { tags: ['a'] }, [1, 2, 3]],
    ['a parameter naming no property does not narrow', { sort: ['id'] }, [1, 2, 3]],
  ])('%s', (_label, query, ids) => {
    const o = op(['state', str], ['colour', { type: 'array', items: str }], ['tags', str], ['sort', str]);
    const test = queryFilter(o, stated, query);
    expect(list.filter((i) => !test || test(i)).map((i) => i.id)).toEqual(ids);
  });

  it('is undefined where nothing narrows, so the list is answered as stored', () => {
    expect(queryFilter(op(['state', str]), stated, {})).toBeUndefined();
  });
});
