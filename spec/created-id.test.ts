import { createdIdOf, valueAt } from './created-id';
import type { Resource } from './resource-types';

const widgets = (over: Partial<Resource>): Resource =>
  ({ name: 'widgets', idField: 'id', idType: 'string', ...over }) as Resource;

describe("a create's id", () => {
  it('is read where the resource says, else in the item, else in Location', () => {
    expect(createdIdOf(widgets({ createdId: { pointer: '/widgetID' } }), { json: { widgetID: 'w1' } })).toBe(
      'w1',
    );
    expect(createdIdOf(widgets({ envelope: 'widget' }), { json: { widget: { id: 'w2' } } })).toBe('w2');
    expect(createdIdOf(widgets({}), { headers: { Location: 'https://x.test/v1/widgets/w%203?a=1' } })).toBe(
      'w 3',
    );
    expect(createdIdOf(widgets({ idType: 'integer' }), { headers: { location: '/widgets/7' } })).toBe(7);
    expect(createdIdOf(widgets({}), { json: { other: 1 } })).toBeUndefined();
  });

  it('follows a JSON pointer through objects and arrays (RFC 6901)', () => {
    expect(valueAt({ metadata: { 'a/b': ['x', 'y'] } }, '/metadata/a~1b/1')).toBe('y');
  });
});
