/** The one matcher: literal before template at every depth, mixed segments, `{name}:verb`, query-carrying keys. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from '../compile';
import { matchPath, type PathMatch } from './match';

const op = (operationId: string) => ({ operationId, responses: { '200': { description: 'ok' } } });

/** A document with these paths, in this order; each method names its operation `<method> <path>`. */
function specOf(paths: Record<string, string[]>) {
  const doc: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(paths))
    doc[path] = Object.fromEntries(methods.map((m) => [m, op(`${m} ${path}`)]));
  return compileSpec(
    'routes',
    {
      openapi: '3.1.0',
      info: { title: 'routes', version: '1' },
      paths: doc,
    } as unknown as OpenAPIV3_1.Document,
    false,
  );
}

const idOf = (m: PathMatch) => ('operation' in m ? m.operation.operationId : m.status);

it('prefers literal text over a template at every depth, whatever the document order', () => {
  const spec = specOf({
    '/items/{id}': ['get', 'delete'],
    '/items/search': ['get'],
    '/{a}/b/c': ['get'],
    '/x/{b}/c': ['get'],
    '/x/b/{c}': ['get'],
  });
  expect(idOf(matchPath(spec, '', 'GET', '/items/search'))).toBe('get /items/search');
  expect(idOf(matchPath(spec, '', 'GET', '/items/7'))).toBe('get /items/{id}');
  // Depth 1 decides first (x is literal in two of the three), then depth 2 (b literal beats {b}).
  expect(idOf(matchPath(spec, '', 'GET', '/x/b/c'))).toBe('get /x/b/{c}');
  expect(idOf(matchPath(spec, '', 'GET', '/x/q/c'))).toBe('get /x/{b}/c');
  expect(idOf(matchPath(spec, '', 'GET', '/y/b/c'))).toBe('get /{a}/b/c');
});

it('tries a first segment’s own routes before those that start with a parameter, encoded or not', () => {
  const spec = specOf({
    '/{kind}/{id}': ['get', 'post'],
    '/{kind}/special': ['get'],
    '/items/{id}': ['get'],
    '/orders/{id}': ['get', 'put'],
    '/items/special': ['put'],
  });
  expect(idOf(matchPath(spec, '', 'GET', '/items/7'))).toBe('get /items/{id}');
  expect(idOf(matchPath(spec, '', 'GET', '/it%65ms/7'))).toBe('get /items/{id}');
  expect(idOf(matchPath(spec, '', 'GET', '/other/special'))).toBe('get /{kind}/special');
  expect(idOf(matchPath(spec, '', 'GET', '/other/7'))).toBe('get /{kind}/{id}');
  expect(idOf(matchPath(spec, '', 'PUT', '/orders/7'))).toBe('put /orders/{id}');
  // The best-ranked path decides the 405: /items/{id} (GET), not /{kind}/{id} (which has POST).
  expect(matchPath(spec, '', 'POST', '/items/7')).toEqual({ status: 405, allow: ['GET'] });
  expect(matchPath(spec, '', 'GET', '/items/special')).toEqual({ status: 405, allow: ['PUT'] });
  expect(matchPath(spec, '', 'DELETE', '/other/7')).toEqual({ status: 405, allow: ['GET', 'POST'] });
});

it('answers 404 for an unknown path and 405 with the best-ranked path’s methods only', () => {
  const spec = specOf({ '/items/{id}': ['get', 'delete'], '/items/search': ['get'] });
  expect(matchPath(spec, '', 'DELETE', '/items/search')).toEqual({ status: 405, allow: ['GET'] });
  expect(matchPath(spec, '', 'PUT', '/items/7')).toEqual({ status: 405, allow: ['GET', 'DELETE'] });
  expect(matchPath(spec, '', 'GET', '/nothing')).toEqual({ status: 404 });
  expect(matchPath(spec, '/v1', 'GET', '/items/7')).toEqual({ status: 404 });
  expect(idOf(matchPath(spec, '/v1', 'GET', '/v1/items/7'))).toBe('get /items/{id}');
});

it('answers HEAD wherever GET is, literal and templated, unless HEAD is documented', () => {
  const spec = specOf({ '/books': ['get', 'head'], '/books/{id}': ['get'] });
  expect(idOf(matchPath(spec, '', 'HEAD', '/books'))).toBe('head /books');
  expect(idOf(matchPath(spec, '', 'HEAD', '/books/1'))).toBe('get /books/{id}');
});

it('routes Google’s {name}:verb beside a bare {name}, and segments mixing text and parameters', () => {
  const spec = specOf({
    '/v1/{name}': ['get', 'post'],
    '/v1/{name}:acknowledge': ['post'],
    '/files/{id}.json': ['get'],
    '/files/{id}': ['get'],
    '/range/{a}-{b}': ['get'],
  });
  expect(idOf(matchPath(spec, '', 'POST', '/v1/abc:acknowledge'))).toBe('post /v1/{name}:acknowledge');
  expect(idOf(matchPath(spec, '', 'POST', '/v1/abc'))).toBe('post /v1/{name}');
  // The custom verb's path is the better match; it documents POST only.
  expect(matchPath(spec, '', 'GET', '/v1/abc:acknowledge')).toEqual({ status: 405, allow: ['POST'] });
  const json = matchPath(spec, '', 'GET', '/files/report.json');
  expect(idOf(json)).toBe('get /files/{id}.json');
  expect('operation' in json && json.rawParams).toEqual(['report']);
  expect(idOf(matchPath(spec, '', 'GET', '/files/report'))).toBe('get /files/{id}');
  const range = matchPath(spec, '', 'GET', '/range/3-9');
  expect('operation' in range && range.rawParams).toEqual(['3', '9']);
});

it('reaches AWS-style keys that carry a query, percent-encoded in the path or as the query', () => {
  const spec = specOf({
    '/#Action=AddRoleToDBCluster': ['post'],
    '/#Action=DescribeDBClusters': ['get', 'post'],
  });
  expect(idOf(matchPath(spec, '', 'POST', '/%23Action=AddRoleToDBCluster'))).toBe(
    'post /#Action=AddRoleToDBCluster',
  );
  expect(idOf(matchPath(spec, '', 'POST', '/', 'Action=AddRoleToDBCluster&Version=2014-10-31'))).toBe(
    'post /#Action=AddRoleToDBCluster',
  );
  expect(idOf(matchPath(spec, '', 'GET', '/', 'Action=DescribeDBClusters'))).toBe(
    'get /#Action=DescribeDBClusters',
  );
  expect(matchPath(spec, '', 'GET', '/', 'Action=AddRoleToDBCluster')).toEqual({
    status: 405,
    allow: ['POST'],
  });
  expect(matchPath(spec, '', 'POST', '/', 'Action=Unknown')).toEqual({ status: 404 });
});

it('matches a literal path with one lookup and keeps the same answer for a percent-encoded literal', () => {
  const spec = specOf({ '/pet/{petId}': ['get'], '/pet/findByStatus': ['get'] });
  expect(idOf(matchPath(spec, '', 'GET', '/pet/find%42yStatus'))).toBe('get /pet/findByStatus');
  expect(idOf(matchPath(spec, '', 'GET', '/pet/%zz'))).toBe('get /pet/{petId}');
});

it('finds a literal path whatever the case of the method, and only for the methods it documents', () => {
  const spec = specOf({ '/books': ['get', 'post'], '/shelves': ['put'] });
  for (const method of ['GET', 'get', 'Get'])
    expect(idOf(matchPath(spec, '', method, '/books'))).toBe('get /books');
  expect(idOf(matchPath(spec, '', 'POST', '/books'))).toBe('post /books');
  expect(idOf(matchPath(spec, '', 'PUT', '/shelves'))).toBe('put /shelves');
  expect(idOf(matchPath(spec, '', 'head', '/books'))).toBe('get /books');
  // No GET on /shelves: HEAD is no operation there, nor is another method on /books.
  expect(matchPath(spec, '', 'HEAD', '/shelves')).toEqual({ status: 405, allow: ['PUT'] });
  expect(matchPath(spec, '', 'DELETE', '/books')).toEqual({ status: 405, allow: ['GET', 'POST'] });
});
