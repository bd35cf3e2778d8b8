import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { seededRandom } from '../send/check-context';
import { parameterCases, parametersRules } from './parameters';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-club-31.yaml');
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(SPEC);
});
const casesOf = (id: string, at: string) =>
  Object.fromEntries(
    parameterCases(
      spec.byId.get(id) as NonNullable<ReturnType<LoadedSpec['byId']['get']>>,
      seededRandom(1),
      at,
    ).map((c) => [c.label, c.expect]),
  );

it('puts each query value on the side the parameter schema says, and a non-integer id on the refused side', () => {
  expect(casesOf('listMembers', '/members')).toMatchObject({
    'query limit: minimum 1': 'accept',
    'query limit: minimum 1 - 1': 'reject',
    'query limit: maximum 100': 'accept',
    'query limit: maximum 100 + 1': 'reject',
    'query limit: not an integer': 'reject',
  });
  expect(casesOf('getMember', '/members/7')).toEqual({
    'path memberId "abc"': 'reject',
    'path memberId "1.5"': 'reject',
  });
});

it('gives an operation with nothing to probe no rule', () => {
  const create = spec.byId.get('createMember');
  expect(create && parametersRules(create)).toEqual([]);
  const list = spec.byId.get('listMembers');
  expect(list && parametersRules(list).map((r) => r.id)).toEqual(['fuzz.listMembers.parameters']);
});

describe('the side of a case, read by the shared request rules (spec/http/request-rules.ts) at every location', () => {
  // A path value, a required cookie (never sent by the fuzz phase) and a query limit: the mock refuses a
  // request by all of them, so the phase must expect what the mock would answer, not only the query's verdict.
  const DOC = {
    openapi: '3.1.0',
    info: { title: 'cookies and paths', version: '1' },
    paths: {
      '/teams/{team}/members': {
        get: {
          operationId: 'listTeamMembers',
          parameters: [
            { name: 'team', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10 } },
          ],
          responses: {
            '200': { description: 'ok' },
            '400': { description: 'bad' },
            '404': { description: 'no' },
          },
        },
      },
      '/session': {
        get: {
          operationId: 'readSession',
          parameters: [
            { name: 'sid', in: 'cookie', required: true, schema: { type: 'string' } },
            { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
          ],
          responses: { '200': { description: 'ok' }, '400': { description: 'bad' } },
        },
      },
    },
  };
  let doc: LoadedSpec;
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-params-'));
    fs.writeFileSync(path.join(dir, 'doc.json'), JSON.stringify(DOC));
    doc = await loadSpecOrThrow(path.join(dir, 'doc.json'));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const sides = (id: string, at: string) =>
    Object.fromEntries(
      parameterCases(
        doc.byId.get(id) as NonNullable<ReturnType<LoadedSpec['byId']['get']>>,
        seededRandom(1),
        at,
      ).map((c) => [c.label, `${c.expect}${c.status ? ` ${c.status}` : ''}`]),
    );

  it('reads the path values of the path sent: valid there, each query case decides alone', () => {
    expect(sides('listTeamMembers', '/teams/core/members')).toMatchObject({
      'query limit: minimum 1': 'accept',
      'query limit: maximum 10 + 1': 'reject 400',
    });
  });

  it('expects a refusal where the path sent breaks its own rule, whatever the query case', () => {
    expect(Object.values(sides('listTeamMembers', '/teams/CORE-1/members'))).not.toContain('accept');
  });

  it('expects a refusal of every case of an operation whose required cookie is not sent', () => {
    const all = sides('readSession', '/session');
    expect(Object.keys(all).length).toBeGreaterThan(0);
    expect(Object.values(all).every((side) => side === 'reject 400')).toBe(true);
  });
});
