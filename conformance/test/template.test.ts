import { checkExpectations, jsonType } from '../verdict/expectations';
import { getPointer, render } from '../send/template';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow();
});

describe('templates', () => {
  it('keeps the type of a whole-value template and interpolates inside strings', () => {
    expect(render({ id: '{{id}}', name: '{{run}}-dog', list: ['{{id}}'] }, { id: 7, run: 'r1' })).toEqual({
      value: { id: 7, name: 'r1-dog', list: [7] },
      missing: [],
    });
  });

  it('lists unknown variables', () => {
    expect(render('/pets/{{petId}}', {}).missing).toEqual(['petId']);
  });

  it.each([
    ['', { a: 1 }],
    ['/a', 1],
    ['/b/0', 'x'],
    ['/c~1d', true],
    ['/nope/deeper', undefined],
  ])('reads the pointer %j', (pointer, value) => {
    expect(getPointer({ a: 1, b: ['x'], 'c/d': true }, pointer)).toEqual(
      pointer === '' ? { a: 1, b: ['x'], 'c/d': true } : value,
    );
  });
});

describe('step expectations', () => {
  const res = (status: number, json: unknown) => ({ status, headers: {}, body: JSON.stringify(json), json });

  it('hold for a matching response', () => {
    const problems = checkExpectations(
      { status: 201, schema: 'Category', types: { '/id': 'integer' }, equals: { '/name': '{{run}}-a' } },
      res(201, { id: 3, name: 'r-a' }),
      spec,
      { run: 'r' },
    );
    expect(problems).toEqual([]);
  });

  it('name each broken expectation', () => {
    const problems = checkExpectations(
      { status: [201], schema: 'Category', types: { '/id': 'integer' }, error: true },
      res(200, { id: '3', name: 'a' }),
      spec,
      {},
    );
    expect(problems).toEqual([
      'status 200, expected 201',
      'body is not a Category: /id must be integer',
      expect.stringMatching(/^body is not an Error/),
      '/id is string, expected integer',
    ]);
  });

  it('find an item in a list, and say so when it is missing', () => {
    const list = res(200, [{ id: 1, name: 'dog' }]);
    expect(checkExpectations({ contains: { item: { id: '{{id}}' } } }, list, spec, { id: 1 })).toEqual([]);
    expect(checkExpectations({ contains: { item: { id: 2 } } }, list, spec, {})).toEqual([
      'no item of the list (1 items) matches {"id":2}',
    ]);
  });

  it('call whole numbers integers', () => {
    expect([1, 1.5, '1', null, [], {}].map(jsonType)).toEqual([
      'integer',
      'number',
      'string',
      'null',
      'array',
      'object',
    ]);
  });
});
