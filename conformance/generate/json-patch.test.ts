import { applyJsonPatch } from '../../mock/core/json-patch';
import { jsonPatchOf, pointerTo, unchangedPatch } from './json-patch';

describe('JSON Patch bodies of the runner (RFC 6902)', () => {
  const before = { id: 'sched_1', cron: '0 8 * * *', note: 'x', 'a/b~c': 1 };

  it('tests each changed member at its value, then replaces, adds or removes it', () => {
    expect(jsonPatchOf({ cron: '0 9 * * *', target: 'https://a.example', note: null }, before)).toEqual([
      { op: 'test', path: '/cron', value: '0 8 * * *' },
      { op: 'replace', path: '/cron', value: '0 9 * * *' },
      { op: 'add', path: '/target', value: 'https://a.example' },
      { op: 'remove', path: '/note' },
    ]);
  });

  it('escapes member names as RFC 6901 pointers', () => {
    expect(pointerTo('a/b~c')).toBe('/a~1b~0c');
    const out = applyJsonPatch(before, jsonPatchOf({ 'a/b~c': 2 }, before));
    expect(out).toEqual({ ok: true, value: { ...before, 'a/b~c': 2 } });
  });

  it('gives what a merge patch would give, applied to the item', () => {
    const change = { cron: '5 5 * * *', note: null };
    const out = applyJsonPatch(before, jsonPatchOf(change, before));
    expect(out).toEqual({ ok: true, value: { id: 'sched_1', cron: '5 5 * * *', 'a/b~c': 1 } });
  });

  it('has a patch that leaves any item as it is', () => {
    expect(applyJsonPatch(before, unchangedPatch('id', before))).toEqual({ ok: true, value: before });
  });
});
