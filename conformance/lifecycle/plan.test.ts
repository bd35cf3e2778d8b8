import type { OperationSpec } from '../../spec/load';
import type { Resource } from '../../spec/resource-types';
import { lifecycleSteps, stepPath } from './plan';

const op = (operationId: string, path: string): OperationSpec => ({ operationId, path }) as OperationSpec;
const OPS = [
  op('createPet', '/pets'),
  op('getPet', '/pets/{petId}'),
  op('listPets', '/pets'),
  op('replacePet', '/pets/{petId}'),
  op('patchPet', '/pets/{petId}'),
  op('updatePet', '/pets'),
  op('deletePet', '/pets/{petId}'),
  op('adoptPet', '/pets/{petId}/adopt'),
  op('listOwners', '/owners'),
];
const spec = { byId: new Map(OPS.map((o) => [o.operationId, o])), operations: OPS };
const ALL = {
  create: 'createPet',
  read: 'getPet',
  list: 'listPets',
  replace: 'replacePet',
  patch: 'patchPet',
  update: 'updatePet',
  remove: 'deletePet',
};
const resource = (operations: Resource['operations']): Resource =>
  ({ name: 'pets', itemParam: 'petId', operations }) as Resource;
const names = (r: Resource) => lifecycleSteps(spec, r).map((s) => `${s.name}:${s.op.operationId}`);

describe('lifecycleSteps', () => {
  it('orders every step the document has: create, read, listed, changes, delete, gone, delete again', () => {
    expect(names(resource(ALL))).toEqual([
      'create:createPet',
      'read:getPet',
      'listed:listPets',
      'replace:replacePet',
      'patch:patchPet',
      'update:updatePet',
      'delete:deletePet',
      'gone:getPet',
      'delete-again:deletePet',
    ]);
  });

  it("puts the item's actions (operations scoped to one of its items) before the delete", () => {
    const pets = resource(ALL);
    const scope = { resource: { ...pets }, echo: false, status: 200 };
    const model = { itemScopes: new Map([['adoptPet', scope]]) };
    expect(lifecycleSteps(spec, pets, model).map((s) => `${s.name}:${s.op.operationId}`)).toEqual([
      'create:createPet',
      'read:getPet',
      'listed:listPets',
      'replace:replacePet',
      'patch:patchPet',
      'update:updatePet',
      'action:adoptPet',
      'delete:deletePet',
      'gone:getPet',
      'delete-again:deletePet',
    ]);
    const other = {
      itemScopes: new Map([['adoptPet', { ...scope, resource: { ...pets, name: 'owners' } }]]),
    };
    expect(lifecycleSteps(spec, pets, other).map((s) => s.name)).not.toContain('action');
  });

  it('has no steps without a create', () => {
    expect(names(resource({ ...ALL, create: undefined }))).toEqual([]);
  });

  it('leaves out what the document lacks, and reads nothing as gone without a delete', () => {
    expect(names(resource({ create: 'createPet', read: 'getPet', list: 'listPets' }))).toEqual([
      'create:createPet',
      'read:getPet',
      'listed:listPets',
    ]);
    expect(names(resource({ create: 'createPet', remove: 'deletePet' }))).toEqual([
      'create:createPet',
      'delete:deletePet',
      'delete-again:deletePet',
    ]);
  });

  it('skips an operationId the document does not define', () => {
    expect(names(resource({ create: 'createPet', read: 'nowhere' }))).toEqual(['create:createPet']);
  });
});

describe('stepPath', () => {
  it("carries the created item's id into an item step, encoded; a collection step keeps its path", () => {
    const r = resource(ALL);
    const [, read, listed] = lifecycleSteps(spec, r);
    expect(stepPath(r, read as { op: OperationSpec }, 'a b/7')).toBe('/pets/a%20b%2F7');
    expect(stepPath(r, listed as { op: OperationSpec }, '7')).toBe('/pets');
  });
});
