/** valueAt reads RFC 6901 pointers; their tokens are kept per pointer, bounded, so any number of pointers read right. */
import { keyParts, valueAt } from './resource-key';

it('reads nested, escaped and array pointers, the same on every read', () => {
  const value = { metadata: { name: 'x', 'a/b': 1, 'c~d': 2 }, list: [{ id: 7 }] };
  for (let round = 0; round < 2; round++) {
    expect(valueAt(value, '/metadata/name')).toBe('x');
    expect(valueAt(value, '/metadata/a~1b')).toBe(1);
    expect(valueAt(value, '/metadata/c~0d')).toBe(2);
    expect(valueAt(value, '/list/0/id')).toBe(7);
    expect(valueAt(value, '/missing/name')).toBeUndefined();
    expect(valueAt(value, '')).toBe(value);
  }
});

it('reads pointers past the number it keeps', () => {
  const value: Record<string, number> = {};
  for (let i = 0; i < 1500; i++) value[`p${i}`] = i;
  for (let i = 0; i < 1500; i++) expect(valueAt(value, `/p${i}`)).toBe(i);
  for (let i = 1499; i >= 0; i -= 7) expect(valueAt(value, `/p${i}`)).toBe(i);
});

it("keeps an id field's key part per resource, following a change of its fields", () => {
  const r = { idField: 'id', itemParam: 'thingId' };
  expect(keyParts(r)).toEqual([{ pointer: '/id', param: 'thingId' }]);
  expect(keyParts(r)).toBe(keyParts(r));
  r.idField = 'slug';
  expect(keyParts(r)).toEqual([{ pointer: '/slug', param: 'thingId' }]);
});
