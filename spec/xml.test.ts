import { fromXml, toXml, withRequiredLists, xmlRootName } from './xml';
import { parseXml } from './xml-parse';
import { qualify } from './xml-names';

const str = { type: 'string' };
const int = { type: 'integer' };

describe('XML by the OpenAPI xml object', () => {
  const cases: [string, object, unknown, RegExp][] = [
    [
      'an object with typed properties',
      { type: 'object', properties: { id: int, name: str, ok: { type: 'boolean' } } },
      { id: 7, name: 'Rex', ok: true },
      /<Pet><id>7<\/id><name>Rex<\/name><ok>true<\/ok><\/Pet>/,
    ],
    [
      'an attribute',
      { type: 'object', properties: { id: { type: 'integer', xml: { attribute: true } }, name: str } },
      { id: 7, name: 'Rex' },
      /<Pet id="7"><name>Rex<\/name><\/Pet>/,
    ],
    [
      'a wrapped array with named items',
      {
        type: 'object',
        properties: {
          tags: {
            type: 'array',
            xml: { name: 'tagList', wrapped: true },
            items: { type: 'string', xml: { name: 'tag' } },
          },
        },
      },
      { tags: ['a', 'b'] },
      /<Pet><tagList><tag>a<\/tag><tag>b<\/tag><\/tagList><\/Pet>/,
    ],
    [
      'an unwrapped array named through allOf (the AWS shape)',
      {
        type: 'object',
        properties: {
          QueueUrls: {
            allOf: [
              {
                type: 'array',
                items: { allOf: [str, { xml: { name: 'QueueUrl' } }] },
                xml: { wrapped: false },
              },
              { description: 'urls' },
            ],
          },
        },
      },
      { QueueUrls: ['u1', 'u2'] },
      /<Pet><QueueUrl>u1<\/QueueUrl><QueueUrl>u2<\/QueueUrl><\/Pet>/,
    ],
    [
      'a namespace and prefix',
      {
        type: 'object',
        xml: { namespace: 'http://example.com/s', prefix: 'smp' },
        properties: { id: { type: 'integer', xml: { prefix: 'smp' } } },
      },
      { id: 1 },
      /<smp:Pet xmlns:smp="http:\/\/example.com\/s"><smp:id>1<\/smp:id><\/smp:Pet>/,
    ],
    [
      'escaped text and attributes',
      { type: 'object', properties: { a: { type: 'string', xml: { attribute: true } }, b: str } },
      { a: '"<&>', b: '</b>&amp;' },
      /<Pet a="&quot;&lt;&amp;&gt;"><b>&lt;\/b&gt;&amp;amp;<\/b><\/Pet>/,
    ],
    [
      'nested objects and a map',
      {
        type: 'object',
        properties: {
          owner: { type: 'object', properties: { n: int } },
          attrs: { type: 'object', additionalProperties: str },
        },
      },
      { owner: { n: 3 }, attrs: { k1: 'v1', k2: 'v2' } },
      /<owner><n>3<\/n><\/owner><attrs><k1>v1<\/k1><k2>v2<\/k2><\/attrs>/,
    ],
  ];
  it.each(cases)('%s: written, then read back to the same value', (_, schema, value, shape) => {
    const xml = toXml(value, schema, 'Pet');
    expect(xml).toMatch(shape);
    expect(fromXml(xml, schema)).toEqual(value);
  });

  it('an empty unwrapped list writes nothing, and reads back as [] where it is required', () => {
    const list = { type: 'array', items: { type: 'string', xml: { name: 'm' } } };
    const schema = { type: 'object', required: ['a'], properties: { a: list, b: list } };
    const xml = toXml({ a: [] }, schema, 'r');
    expect(xml).toContain('<r></r>');
    expect(fromXml(xml, schema)).toEqual({ a: [] });
  });

  it('a root array repeats its items under the root', () => {
    const schema = {
      type: 'array',
      items: { type: 'object', xml: { name: 'Pet' }, properties: { id: int } },
    };
    const xml = toXml([{ id: 1 }, { id: 2 }], schema, 'Pets');
    expect(xml).toContain('<Pets><Pet><id>1</id></Pet><Pet><id>2</id></Pet></Pets>');
    expect(fromXml(xml, schema)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('leaves out an object marked attribute (it cannot be one), so it is not read back as another element', () => {
    const schema = {
      type: 'object',
      properties: {
        make: { type: 'object', xml: { attribute: true } },
        model: { ...str, xml: { attribute: true } },
      },
    };
    const xml = toXml({ make: {}, model: 'T' }, schema, 'Vehicle');
    expect(xml).toContain('<Vehicle model="T"></Vehicle>');
    expect(fromXml(xml, schema)).toEqual({ model: 'T' });
  });

  it('gives a required unwrapped list an item: a list of none writes no element, read as missing', () => {
    const schema = {
      type: 'object',
      required: ['Items'],
      properties: { Items: { type: 'array', items: { ...str, xml: { name: 'Method' } } } },
    };
    const value = withRequiredLists({ Items: [] }, schema, () => 'GET');
    expect(value).toEqual({ Items: ['GET'] });
    expect(toXml(value, schema, 'AllowedMethods')).toContain('<AllowedMethods><Method>GET</Method>');
  });

  it('empties unwrapped lists whose items share an element name (each would read all of them)', () => {
    const list = (items: object) => ({ type: 'array', items: { ...items, xml: { name: 'item' } } });
    const schema = {
      type: 'object',
      properties: {
        Rules: list({ type: 'object', properties: { id: str } }),
        Services: list({ type: 'string', enum: ['amazon-dns'] }),
        Tags: { type: 'array', items: str },
      },
    };
    const value = { Rules: [{ id: 'r' }], Services: ['amazon-dns'], Tags: ['t'] };
    expect(withRequiredLists(value, schema, () => undefined)).toEqual({ Tags: ['t'] });
  });

  it('names the root by the schema, else the fallback', () => {
    expect(xmlRootName({ xml: { name: 'pet' } }, 'Pet')).toBe('pet');
    expect(xmlRootName({ type: 'object' }, 'List Queues')).toBe('List_Queues');
  });

  it('reads CDATA, comments, character references; refuses a DOCTYPE, broken or unclosed markup', () => {
    const el = parseXml('<?xml version="1.0"?><!-- c --><r a=\'x&#65;\'><![CDATA[<b>]]>&#x41;</r>');
    expect(el).toEqual({ name: 'r', attrs: { a: 'xA' }, children: [], text: '<b>A' });
    expect(() => parseXml('<!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>')).toThrow(/DOCTYPE/);
    expect(() => parseXml('<r><a></r>')).toThrow();
    expect(() => parseXml('<r>')).toThrow(/not closed/);
    expect(() => parseXml('{"id":1}')).toThrow();
    expect(() => parseXml('<r/><s/>')).toThrow(/more than one root/);
  });
});

describe('prefixed XML names (issue 40: S3’s `xsi:type`, PeerTube’s `media:content`)', () => {
  const schema = {
    type: 'object',
    properties: {
      kind: { type: 'string', xml: { name: 'xsi:type', attribute: true } },
      content: { type: 'string', xml: { name: 'media:content' } },
      link: { type: 'string', xml: { prefix: 'atom' } },
      id: { type: 'integer', xml: { prefix: 'smp', namespace: 'urn:s' } },
    },
  };
  const xml = toXml({ kind: 'CanonicalUser', content: 'c', link: 'l', id: 1 }, schema, 'Grantee');

  it('declares every prefix it writes (xsi by the W3C’s namespace) and leaves out one declared nowhere', () => {
    expect(xml).toContain(
      '<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser">',
    );
    expect(xml).toContain('<content>c</content><link>l</link><smp:id xmlns:smp="urn:s">1</smp:id>');
  });

  it('reads back by local names, as it wrote them', () => {
    expect(fromXml(xml, schema)).toEqual({ kind: 'CanonicalUser', content: 'c', link: 'l', id: 1 });
  });

  it('uses a prefix an ancestor declared without declaring it again', () => {
    const inner = qualify('id', { prefix: 'smp' }, new Set(['smp']));
    expect(inner).toMatchObject({ q: 'smp:id', decl: '' });
    expect(qualify('lang', { prefix: 'xml' }, new Set(), true)).toMatchObject({ q: 'xml:lang', decl: '' });
  });
});
