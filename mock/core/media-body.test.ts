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
