import type { Resource } from '../../spec/resource-types';
import { toStored } from './records';

const service: Resource = {
  name: 'services',
  collectionPath: '/services',
  itemPath: '/services/{sid}',
  itemParam: 'sid',
  idField: 'sid',
  idType: 'string',
  idSource: 'server',
  itemSchema: {
    type: 'object',
    properties: { sid: { type: 'string' }, friendly_name: { type: 'string' }, area_code: { type: 'string' } },
  },
  readOnly: [],
  operations: { create: 'createService' },
};

describe('toStored', () => {
  it("stores a body's field under the item's name when they differ only by case and _", () => {
    const stored = toStored({ FriendlyName: 'kit', areaCode: '415', Other: 'x' }, service, 0);
    expect(stored).toEqual({ friendly_name: 'kit', area_code: '415' });
  });

  it('keeps a field the item names as sent, and an update through the other name wins over the old value', () => {
    const old = { sid: 'S1', friendly_name: 'old' };
    expect(toStored({ ...old, FriendlyName: 'new' }, service, 0, old)).toEqual({
      sid: 'S1',
      friendly_name: 'new',
    });
  });
});
