/**
 * Credentials and parameters as the judge reads them: which headers each security alternative needs is worked
 * out once per operation, and an operation that declares no parameter parses no query or cookie.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { judgeRequest, malformedPath, routeRequest } from './judge-request';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'credentials', version: '1' },
  components: {
    securitySchemes: {
      headerKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'key' },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  },
  paths: {
    '/header': {
      get: {
        operationId: 'headerOnly',
        security: [{ headerKey: [] }],
        responses: { 200: { description: 'ok' } },
      },
    },
    '/query': {
      get: {
        operationId: 'queryOnly',
        security: [{ queryKey: [] }],
        responses: { 200: { description: 'ok' } },
      },
    },
    '/both': {
      get: {
        operationId: 'both',
        security: [
          { headerKey: [], bearer: [] },
          { queryKey: [], bearer: [] },
        ],
        parameters: [{ name: 'n', in: 'query', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'ok' }, 400: { description: 'bad' } },
      },
    },
  },
};

let spec: LoadedSpec;
beforeAll(async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'judge-request-')), 'doc.json');
  fs.writeFileSync(file, JSON.stringify(DOC));
  spec = await loadSpecOrThrow(file);
});

const rules = (url: string, headers: Record<string, string>) => {
  const route = routeRequest(spec, 'GET', url);
  return judgeRequest(spec, { method: 'GET', url, headers }, route).map((p) => p.rule);
};

describe('the judge reads credentials and parameters', () => {
  it.each([
    ['/header', {}, ['request.credentials']],
    ['/header', { 'x-api-key': 'k' }, []],
    ['/header', { authorization: 'Bearer t' }, ['request.credentials']],
    ['/query', {}, []],
    ['/both?n=1', { authorization: 'Bearer t' }, []],
    ['/both?n=1', { 'x-api-key': 'k' }, ['request.credentials']],
    ['/both?n=1', {}, ['request.credentials']],
    ['/both', { authorization: 'Bearer t' }, ['request.parameters']],
    ['/both?n=x', { authorization: 'Bearer t' }, ['request.parameters']],
  ])('GET %s with %j: %j', (url, headers, expected) => {
    expect(rules(url, headers)).toEqual(expected);
  });

  it.each([
    ['/v1/categories', false],
    ['/v1/caf%C3%A9?q=%zz', false],
    ['/v1/%zz', true],
    ['/v1/%E0%A4%A', true],
  ])('a path of %s is malformed: %s', (url, expected) => {
    expect(malformedPath(url)).toBe(expected);
  });
});
