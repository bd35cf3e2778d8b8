import type { OperationSpec } from './compile';
import { isJsonPatch, patchHeldToMediaType, sendsJsonPatch } from './json-patch';

const opWith = (mediaTypes: string[], schema: unknown): OperationSpec =>
  ({ requestBody: { mediaTypes, schema, required: true, kind: 'json' } }) as unknown as OperationSpec;

const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];
const OPS = [{ op: 'add', path: '/a', value: 1 }];

describe('which patch a request sends', () => {
  it('follows the Content-Type where the operation documents several patch types', () => {
    const op = opWith(patchTypes, { type: 'object' });
    expect(isJsonPatch(op)).toBe(true);
    expect(sendsJsonPatch(op, 'application/json-patch+json; charset=utf-8')).toBe(true);
    expect(sendsJsonPatch(op, 'application/strategic-merge-patch+json')).toBe(false);
    expect(sendsJsonPatch(op, 'application/merge-patch+json')).toBe(false);
    expect(sendsJsonPatch(op, undefined)).toBe(true);
  });

  it('takes a JSON Patch by the schema when the schema is an array of { op, path }', () => {
    const op = opWith(['application/json'], {
      type: 'array',
      items: { type: 'object', properties: { op: { type: 'string' }, path: { type: 'string' } } },
    });
    expect(sendsJsonPatch(op, 'application/json')).toBe(true);
  });
});

describe('a JSON Patch held to its media type', () => {
  it('where the schema describes an object, not where it allows arrays or says nothing', () => {
    const type = 'application/json-patch+json';
    expect(patchHeldToMediaType(type, { type: 'object' }, OPS)).toBe(true);
    expect(patchHeldToMediaType(type, { type: 'array' }, OPS)).toBe(false);
    expect(patchHeldToMediaType(type, {}, OPS)).toBe(false);
    expect(patchHeldToMediaType('application/merge-patch+json', { type: 'object' }, OPS)).toBe(false);
    expect(patchHeldToMediaType(type, { type: 'object' }, [{ op: 'add' }])).toBe(false);
    expect(patchHeldToMediaType(type, { type: 'object' }, { op: 'add', path: '/a' })).toBe(false);
  });
});
