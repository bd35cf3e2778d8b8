/** A key the document says is made from another field (spec/derived-key.ts). */
import { deriveKey, derivedKeyOf } from './derived-key';
import type { Schema } from './schema-shape';

const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const item: Schema = {
  type: 'object',
  properties: { id: str(), email: str(), email_address: str(), contact_id: str() },
};

describe('derivedKeyOf', () => {
  it.each([
    [
      "Mailchimp's member id",
      "The MD5 hash of the lowercase version of the list member's email address.",
      { from: 'email_address', hash: 'md5', lowerCase: true },
    ],
    [
      'a field named by fewer words',
      'An MD5 hash of the email.',
      { from: 'email', hash: 'md5', lowerCase: false },
    ],
    [
      'lower-cased spelled with a hyphen',
      'The MD5 hash of the lower-cased email address',
      { from: 'email_address', hash: 'md5', lowerCase: true },
    ],
    ['another hash', 'The SHA-256 hash of the email address.', undefined],
    ['no field the words name', 'The MD5 hash of the phone number.', undefined],
    ['no derivation said', 'The unique id of the member.', undefined],
  ])('%s', (_, description, expected) => {
    expect(derivedKeyOf(item, 'id', [str(description)])).toEqual(expected);
  });

  it("reads the path parameter's description where the key's says nothing, and never the key itself", () => {
    const param = str('The MD5 hash of the lowercase version of the id.');
    expect(derivedKeyOf(item, 'id', [str(), param])).toBeUndefined();
    const said = str('The MD5 hash of the lowercase version of the email address.');
    expect(derivedKeyOf(item, 'id', [str(), said])?.from).toBe('email_address');
  });
});

describe('deriveKey', () => {
  it('hashes the lower-cased field, or gives nothing when the field is not a string', () => {
    const d = { from: 'email_address', hash: 'md5', lowerCase: true } as const;
    expect(deriveKey(d, { email_address: 'Kit.Member@Example.com' })).toBe(
      'a9e0067e0c7f73d02f1d5bcf648a953e',
    );
    expect(deriveKey(d, { email_address: 7 })).toBeUndefined();
  });
});
