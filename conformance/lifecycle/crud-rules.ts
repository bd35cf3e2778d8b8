/** Pure: the lifecycle rules of one resource (`crud.<resource>.<step>`), only the steps the resource has. */
import type { Resource } from '../../spec/resources';
import type { RuleOf } from '../rules';

export type CrudStep =
  | 'create'
  | 'read'
  | 'listed'
  | 'replace'
  | 'merge-patch'
  | 'json-patch'
  | 'delete'
  | 'delete-then-404'
  | 'delete-again-404'
  | 'unknown-id-404'
  | 'read-only-not-stored'
  | 'read-only-rejected';

export const crudRuleId = (resource: Resource, step: CrudStep): `crud.${string}` =>
  `crud.${resource.name}.${step}`;

const TITLES: Record<CrudStep, (r: Resource) => string> = {
  create: (r) => `Creating a ${r.name} item answers a documented 2xx with its ${r.idField ?? 'id'}`,
  read: (r) => `Reading a created ${r.name} item gives that item with the values sent`,
  listed: (r) => `A created ${r.name} item appears in the list`,
  replace: (r) => `Replacing a ${r.name} item stores the new values (read back)`,
  'merge-patch': (r) =>
    `A merge patch (RFC 7396) of a ${r.name} item changes the given fields and keeps the others`,
  'json-patch': (r) =>
    `A JSON Patch (RFC 6902: test, replace, add, remove) of a ${r.name} item changes the given fields and keeps the others (read back)`,
  delete: (r) => `Deleting a ${r.name} item answers a documented 2xx`,
  'delete-then-404': (r) => `A deleted ${r.name} item reads as 404`,
  'delete-again-404': (r) => `Deleting a deleted ${r.name} item again gives 404`,
  'unknown-id-404': (r) => `An unknown ${r.idField ?? 'id'} gives 404 on every ${r.name} item operation`,
  'read-only-not-stored': (r) =>
    `A client-sent readOnly property (${r.readOnly.join(', ')}) of ${r.name} is rejected or ignored, never stored, in a ${writesOf(r)}`,
  'read-only-rejected': (r) =>
    `A client-sent readOnly property (${r.readOnly.join(', ')}) of ${r.name} is rejected with 400 in a ${writesOf(r)}`,
};

/** The writes a readOnly property is sent in: the create, and the replace and patch where the resource has them. */
export function readOnlyWrites(r: Resource): ('create' | 'replace' | 'patch')[] {
  const o = r.operations;
  if (!o.create) return [];
  return (['create', 'replace', 'patch'] as const).filter((a) => o[a]);
}

const writesOf = (r: Resource): string => readOnlyWrites(r).join(', ');

/** The steps `resource` has, in lifecycle order. */
export function crudSteps(r: Resource): CrudStep[] {
  const o = r.operations;
  const hasItem = !!(o.read ?? o.replace ?? o.patch ?? o.remove);
  const steps: CrudStep[] = [];
  if (o.create) steps.push('create');
  if (o.create && o.read) steps.push('read');
  // Found in the list by its id: an item the document gives no id cannot be told from the others.
  if (o.create && o.list && r.idField) steps.push('listed');
  if (o.create && o.replace) steps.push('replace');
  if (o.create && o.patch) steps.push(r.jsonPatch ? 'json-patch' : 'merge-patch');
  if (o.create && o.remove) steps.push('delete', 'delete-again-404');
  if (o.create && o.remove && o.read) steps.splice(steps.indexOf('delete') + 1, 0, 'delete-then-404');
  if (hasItem) steps.push('unknown-id-404');
  if (o.create && r.readOnly.length > 0) steps.push('read-only-not-stored', 'read-only-rejected');
  return steps;
}

/** The rules of `resource`; `source` is where the document states them (its collection path). */
export function crudRules(r: Resource): RuleOf<`crud.${string}`>[] {
  return crudSteps(r).map((step) => {
    // A readOnly value is the server's (JSON Schema 2020-12 §9.4, which OpenAPI 3.1 defers to: "ignored or
    // rejected" by the owning authority): never storing it is the contract. OpenAPI only says a client SHOULD NOT
    // send one, so rejecting it with 400 is a choice (the mock's default, `readOnlyProperties` in its settings).
    const assumption = step === 'read-only-rejected';
    return {
      id: crudRuleId(r, step),
      title: TITLES[step](r),
      source: r.itemPath ? `${r.collectionPath} + ${r.itemPath}` : r.collectionPath,
      kind: assumption ? 'assumption' : 'contract',
      tags: ['generated', 'crud', ...(assumption ? ['assumption'] : [])],
    };
  });
}
