import { isMethodToken, isReadMethod, operationObject, operationsOf, PATH_ITEM_METHODS } from './methods';
import type { OpenAPIV3_1 } from 'openapi-types';

const op = (id: string) => ({ operationId: id, responses: {} });

describe('operationsOf (OpenAPI 3.2 Path Items)', () => {
  it('lists the fixed fields, QUERY among them, then additionalOperations in the document order', () => {
    const item = {
      summary: 'x',
      parameters: [],
      get: op('a'),
      query: op('b'),
      additionalOperations: { COPY: op('c'), LINK: op('d') },
    };
    expect(operationsOf(item).map((o) => [o.method, o.operation.operationId, o.at])).toEqual([
      ['get', 'a', 'get'],
      ['query', 'b', 'query'],
      ['copy', 'c', 'additionalOperations/COPY'],
      ['link', 'd', 'additionalOperations/LINK'],
    ]);
  });

  it.each([
    [
      'a fixed method in another case (the fixed field wins)',
      { get: op('a'), additionalOperations: { get: op('x') } },
      ['a'],
    ],
    ['a second spelling of one method', { additionalOperations: { COPY: op('c'), copy: op('x') } }, ['c']],
    ['a name that is no method token', { additionalOperations: { 'NO WAY': op('x') } }, []],
    ['a value that is no operation', { additionalOperations: { COPY: 'x' } }, []],
  ])('leaves out %s', (_label, item, ids) => {
    expect(operationsOf(item).map((o) => o.operation.operationId)).toEqual(ids);
  });

  it('finds the operation object of a method, additional ones in any case', () => {
    const document = {
      openapi: '3.2.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { additionalOperations: { COPY: op('c') } } },
    } as unknown as OpenAPIV3_1.Document;
    expect(operationObject(document, '/a', 'copy')?.operationId).toBe('c');
    expect(operationObject(document, '/a', 'COPY')?.operationId).toBe('c');
    expect(operationObject(document, '/a', 'get')).toBeUndefined();
    expect(operationObject(document, '/b', 'copy')).toBeUndefined();
  });

  it('knows QUERY as a read, and the fixed fields as the 3.2 list', () => {
    expect(PATH_ITEM_METHODS).toContain('query');
    expect(['GET', 'query', 'HEAD', 'OPTIONS'].every(isReadMethod)).toBe(true);
    expect(['POST', 'COPY', 'delete'].some(isReadMethod)).toBe(false);
    expect([isMethodToken('M-SEARCH'), isMethodToken('A B'), isMethodToken('')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
