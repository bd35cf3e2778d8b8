/** Operation ids: the document's, else derived from method and path, said once (issue 30). */
import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { coerceParam, derivedOperationId, operationIds } from './compile';
import { loadSpec } from './load';

const doc = (paths: Record<string, unknown>): OpenAPIV3_1.Document =>
  ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }) as OpenAPIV3_1.Document;
const ok = { responses: { '200': { description: 'ok' } } };

it('keeps a given operationId and derives the others from method and path', () => {
  const d = doc({
    '/a': { get: { ...ok, operationId: 'listA' }, post: ok },
    '/wayback/v1/available': { get: ok },
  });
  const { byOperation, notes } = operationIds(d);
  expect([...byOperation.values()].sort()).toEqual(['get_/wayback/v1/available', 'listA', 'post_/a']);
  expect(derivedOperationId('get', '/wayback/v1/available')).toBe('get_/wayback/v1/available');
  expect(notes).toHaveLength(1);
  expect(notes[0]).toMatch(
    /^operation ids: 2 without an operationId named by method and path \(post_\/a, …\)/,
  );
});

it('gives the second of two operations sharing an operationId its own, and says so', () => {
  const d = doc({
    '/a': { get: { ...ok, operationId: 'same' } },
    '/b': { get: { ...ok, operationId: 'same' } },
  });
  const ids = operationIds(d);
  expect([...ids.byOperation.values()]).toEqual(['same', 'get_/b']);
  expect(ids.notes[0]).toMatch(/1 sharing one \(same\)/);
});

it('says nothing when every operation has its own id', () => {
  expect(operationIds(doc({ '/a': { get: { ...ok, operationId: 'x' } } })).notes).toEqual([]);
});

it('loads a document without operation ids: every operation addressable, one warning line', async () => {
  const file = path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'public', 'no-operation-id-30.yaml');
  const result = await loadSpec(file);
  if (!result.ok) throw new Error(result.error);
  expect([...result.spec.byId.keys()].sort()).toEqual([
    'delete_/symbols/{symbol}',
    'getSymbol',
    'get_/quotes',
    'get_/symbols',
  ]);
  expect(result.warnings.filter((w) => w.startsWith('operation ids:'))).toHaveLength(1);
});

describe('answers documented as */* (issue 40)', () => {
  const file = path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'public', 'wildcard-json-40.yaml');

  it('are JSON over a schema of objects, and stay files over a binary string', async () => {
    const loaded = await loadSpec(file);
    if (!loaded.ok) throw new Error(loaded.error);
    const overview = loaded.spec.byId.get('getCompanyOverview')?.responses.get('200');
    expect(overview?.contentType).toBe('application/json');
    expect(overview?.validateBody?.({ companyId: 'c', boardMembers: [] })).toBe(true);
    expect(overview?.validateBody?.({ boardMembers: 'none' })).toBe(false);
    expect(loaded.spec.byId.get('getCompanyReport')?.responses.get('200')?.contentType).toBeUndefined();
  });

  it("hold JSON given only examples to the range's schema beside it (osf.io's lists)", async () => {
    const loaded = await loadSpec(file);
    if (!loaded.ok) throw new Error(loaded.error);
    const addons = loaded.spec.byId.get('listAddons')?.responses.get('200');
    expect(addons?.contentType).toBe('application/json');
    expect(addons?.validateBody?.([{ id: 'box', type: 'addon' }])).toBe(true);
    expect(addons?.validateBody?.({ data: [] })).toBe(false);
  });
});

describe('a query object sent under its own name as JSON text (Redshift’s TargetAction)', () => {
  const schema = { type: 'object', properties: { PauseCluster: { type: 'object' } } } as const;
  it('is read as the object', () => {
    expect(coerceParam(schema, '{"PauseCluster":{"ClusterIdentifier":"c1"}}')).toEqual({
      PauseCluster: { ClusterIdentifier: 'c1' },
    });
  });
  it('stays text when it is not a JSON object, for the schema to refuse', () => {
    expect(coerceParam(schema, '{not json')).toBe('{not json');
    expect(coerceParam({ type: 'string' }, '{"a":1}')).toBe('{"a":1}');
  });
});
