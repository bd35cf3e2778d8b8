import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { seededRandom } from '../send/check-context';
import { parameterCases, parametersRules } from './parameters';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-club-31.yaml');
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(SPEC);
});
const casesOf = (id: string) =>
  Object.fromEntries(
    parameterCases(
      spec.byId.get(id) as NonNullable<ReturnType<LoadedSpec['byId']['get']>>,
      seededRandom(1),
    ).map((c) => [c.label, c.expect]),
  );

it('puts each query value on the side the parameter schema says, and a non-integer id on the refused side', () => {
  expect(casesOf('listMembers')).toMatchObject({
    'query limit: minimum 1': 'accept',
    'query limit: minimum 1 - 1': 'reject',
    'query limit: maximum 100': 'accept',
    'query limit: maximum 100 + 1': 'reject',
    'query limit: not an integer': 'reject',
  });
  expect(casesOf('getMember')).toEqual({ 'path memberId "abc"': 'reject', 'path memberId "1.5"': 'reject' });
});

it('gives an operation with nothing to probe no rule', () => {
  const create = spec.byId.get('createMember');
  expect(create && parametersRules(create)).toEqual([]);
  const list = spec.byId.get('listMembers');
  expect(list && parametersRules(list).map((r) => r.id)).toEqual(['fuzz.listMembers.parameters']);
});
