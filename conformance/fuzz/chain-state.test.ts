import type { OperationSpec } from '../../spec/load';
import type { Resource } from '../../spec/resource-types';
import { chainSteps } from './chain-state';

const ids = ['createPet', 'getPet', 'listPets', 'replacePet', 'deletePet'];
const ops = ids.map((id) => ({ operationId: id }) as OperationSpec);
const spec = { byId: new Map(ops.map((o) => [o.operationId, o])), operations: ops };
const resource = (operations: Resource['operations']): Resource => ({ name: 'pets', operations }) as Resource;

describe('chainSteps', () => {
  it('takes every kind of step where the lifecycle has them all', () => {
    const all = {
      create: 'createPet',
      read: 'getPet',
      list: 'listPets',
      replace: 'replacePet',
      remove: 'deletePet',
    };
    expect(chainSteps(spec, resource(all))).toEqual([
      'create',
      'read',
      'replace',
      'bad-replace',
      'list',
      'delete',
      'no-key-write',
    ]);
  });

  it('spends no step on what the document lacks (no replace, no list, no delete)', () => {
    expect(chainSteps(spec, resource({ create: 'createPet', read: 'getPet' }))).toEqual([
      'create',
      'read',
      'no-key-write',
    ]);
  });
});
