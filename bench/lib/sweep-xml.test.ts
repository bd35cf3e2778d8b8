import Ajv2020 from 'ajv/dist/2020';
import { undeclaredPrefixes, xmlJudge } from './sweep-xml';
import { toXml } from '../../spec/xml';

const ajv = new Ajv2020({ strict: false });

const pet = {
  type: 'object',
  xml: { name: 'Pet' },
  required: ['id', 'tags'],
  properties: {
    id: { type: 'integer', xml: { attribute: true } },
    name: { type: 'string' },
    photoUrls: {
      type: 'array',
      xml: { wrapped: true },
      items: { type: 'string', xml: { name: 'photoUrl' } },
    },
    tags: {
      type: 'array',
      items: { type: 'object', xml: { name: 'tag' }, properties: { n: { type: 'string' } } },
    },
  },
  additionalProperties: false,
};

describe("the sweep's second XML reader (fast-xml-parser, the xml object's rules)", () => {
  const judge = (body: string) => xmlJudge(body, pet, ajv.compile(pet));

  it('reads attributes, wrapped and unwrapped lists under the named root', () => {
    const body =
      '<?xml version="1.0"?><Pet id="7"><name>Rex</name><photoUrls><photoUrl>a</photoUrl></photoUrls>' +
      '<tag><n>x</n></tag><tag><n>y</n></tag></Pet>';
    expect(judge(body)).toEqual([]);
  });

  it("agrees with the mock's writer on a value of the schema", () => {
    const value = { id: 3, name: 'Rex', photoUrls: ['a', 'b'], tags: [{ n: 'x' }] };
    expect(judge(toXml(value, pet, 'Pet'))).toEqual([]);
  });

  it('finds a wrong root, a missing required list, an unknown element, and text that is not XML', () => {
    expect(judge('<Dog id="1"><tag><n>x</n></tag></Dog>')).toEqual([
      'xml: root <Dog>, the schema names <Pet>',
    ]);
    expect(judge('<Pet id="1"></Pet>').join()).toMatch(/must have required property 'tags'/);
    expect(judge('<Pet id="1"><tag/><colour>red</colour></Pet>').join()).toMatch(/additional properties/);
    expect(judge('{"id": 1}')[0]).toMatch(/^xml: /);
  });

  it('types leaves by the schema: a number that is not one is refused', () => {
    expect(judge('<Pet id="seven"><tag><n>x</n></tag></Pet>').join()).toMatch(/\/id must be integer/);
  });
});

describe('prefixed names in the second XML reader', () => {
  const grantee = {
    type: 'object',
    properties: {
      kind: { type: 'string', xml: { name: 'xsi:type', attribute: true } },
      content: { type: 'string', xml: { name: 'media:content' } },
    },
    required: ['kind', 'content'],
    additionalProperties: false,
  };

  it("reads a schema's prefixed names by their local part, and agrees with the mock's writer", () => {
    const body = toXml({ kind: 'Group', content: 'c' }, grantee, 'Grantee');
    expect(xmlJudge(body, grantee, ajv.compile(grantee))).toEqual([]);
  });

  it('finds a prefix declared nowhere', () => {
    expect(undeclaredPrefixes('<a xmlns:x="u"><x:b/><y:c z:d="1"/></a>')).toEqual([
      'xml: prefix y declared nowhere',
      'xml: prefix z declared nowhere',
    ]);
  });
});
