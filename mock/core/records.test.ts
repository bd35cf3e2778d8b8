import type { Resource } from '../../spec/resource-types';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type OperationSpec } from '../../spec/compile';
import { successStatus, toStored } from './records';

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

describe('toStored with a key the document says is made from a field', () => {
  const member: Resource = {
    ...service,
    name: 'members',
    idField: 'id',
    itemSchema: { type: 'object', properties: { id: { type: 'string' }, email_address: { type: 'string' } } },
    derivedKey: { from: 'email_address', hash: 'md5', lowerCase: true },
  };

  it('makes the key on a create (the MD5 of the lower-cased email), and keeps the old one on a replace', () => {
    const made = toStored({ email_address: 'Kit.Member@Example.com' }, member, 0);
    expect(made.id).toBe('a9e0067e0c7f73d02f1d5bcf648a953e');
    const old = { id: 'a9e0067e0c7f73d02f1d5bcf648a953e', email_address: 'kit.member@example.com' };
    expect(toStored({ email_address: 'other@example.com' }, member, 0, old).id).toBe(old.id);
  });

  it('leaves the key to the store when the body has no such field', () => {
    expect(toStored({}, member, 0).id).toBeUndefined();
  });
});

describe('successStatus, kept with its operation', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        post: {
          operationId: 'made',
          responses: { '200': { description: 'ok' }, '201': { description: 'made' } },
        },
      },
    },
  } as unknown as OpenAPIV3_1.Document;

  it('answers each action of one operation with its own status, asked again and again', () => {
    const op = compileSpec('t', document, false).operations[0] as OperationSpec;
    for (let round = 0; round < 3; round++) {
      expect(successStatus(op, 'create')).toBe(201);
      expect(successStatus(op, 'list')).toBe(200);
    }
  });
});
