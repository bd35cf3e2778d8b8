import path from 'node:path';
import { mediaBody } from './media-body';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { fromXml } from '../../spec/xml';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'public', 'xml-examples-40.yaml');
let spec: LoadedSpec;

beforeAll(async () => {
  spec = await loadSpecOrThrow(FILE);
});

/** The XML answer of `operationId`, read back by the schema, and whether the schema accepts it. */
function answer(operationId: string): { text: string; valid: boolean } {
  const op = spec.byId.get(operationId);
  const xml = op?.responses.get('200')?.xml;
  if (!op || !xml) throw new Error(`no XML answer for ${operationId}`);
  const body = mediaBody(spec.document, op, 200, 'text/xml');
  const text = new TextDecoder().decode(body?.raw);
  return { text, valid: xml.validate(fromXml(text, xml.schema)) };
}

describe('XML answers whose example is not the schema’s (issue 40)', () => {
  it('an XML text example the schema refuses is replaced by a value it accepts', () => {
    const { text, valid } = answer('GET_DescribeStatus');
    expect(text).not.toContain('<code>ok</code>');
    expect(valid).toBe(true);
  });

  it('an example written as an object is held to the schema before it is written', () => {
    expect(answer('GET_CreateReservation').valid).toBe(true);
  });
});

describe('object schemas under text types that are not JSON or XML (issue 40)', () => {
  const TEXT = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'public', 'text-object-40.yaml');
  let text: LoadedSpec;
  beforeAll(async () => {
    text = await loadSpecOrThrow(TEXT);
  });
  const body = (operationId: string, accept: string): string => {
    const op = text.byId.get(operationId);
    if (!op) throw new Error(`no operation ${operationId}`);
    return new TextDecoder().decode(mediaBody(text.document, op, 200, accept)?.raw);
  };

  it('a vendor type is answered as the schema’s object in JSON text', () => {
    expect(JSON.parse(body('apiVersion', '*/*'))).toEqual({ versions: ['v1', 'v2'] });
  });

  it('a CSV type is answered as a header row and a row of the object, fields quoted where needed', () => {
    const lines = body('exportTransactions', 'application/csv').trimEnd().split('\r\n');
    expect(lines[0]?.split(',')).toEqual(expect.arrayContaining(['payeeName', 'paymentAmount']));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"rent, March"');
  });
});
