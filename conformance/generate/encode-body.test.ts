import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec, type OperationSpec } from '../../spec/load';
import { decodeForm } from '../../spec/http/form-decode';
import { encodeBody, formBody } from './encode-body';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'params-forms-31.yaml');
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(SPEC);
});
const op = (id: string) => spec.byId.get(id) as OperationSpec;

it('writes a multipart-only body as parts, the file as a small file with a filename and its encoding', () => {
  const out = encodeBody(op('upload'), { note: 'hello', meta: { kind: 'x' } }, 'conformance-t');
  if ('skip' in out) throw new Error(out.skip);
  const boundary = /boundary=(.+)$/.exec(out.contentType)?.[1] ?? '';
  expect(out.contentType).toMatch(/^multipart\/form-data; boundary=/);
  const parts = out.body.split(`--${boundary}`).slice(1, -1);
  expect(parts).toHaveLength(3);
  expect(out.body).toContain('Content-Disposition: form-data; name="note"\r\n\r\nhello\r\n');
  expect(out.body).toContain('name="meta"\r\nContent-Type: application/json\r\n\r\n{"kind":"x"}');
  // The file is there though the value left it out; its part type is the encoding's first concrete one.
  expect(out.body).toMatch(
    /name="file"; filename="conformance-t-file-1\.txt"\r\nContent-Type: text\/csv\r\n/,
  );
  expect(out.body.endsWith(`--${boundary}--\r\n`)).toBe(true);
});

it('writes a form-only body as a form the shared decoder reads back', () => {
  const out = encodeBody(op('subscribe'), { email: 'a@example.com', topics: ['news', 'offers'] });
  if ('skip' in out) throw new Error(out.skip);
  expect(out).toEqual({
    contentType: 'application/x-www-form-urlencoded',
    body: 'email=a%40example.com&topics=news&topics=offers',
  });
  const schema = op('subscribe').requestBody?.schema ?? {};
  expect(decodeForm(out.body, schema)).toEqual({
    ok: true,
    value: { email: 'a@example.com', topics: ['news', 'offers'] },
  });
  expect(formBody({ a: [1, 2] }, { a: { explode: false } })).toBe('a=1%2C2');
});

it('builds no body it cannot write (XML), saying why, and JSON where JSON is documented', () => {
  expect(encodeBody(op('putRaw'), { a: 'x' })).toEqual({ skip: expect.stringMatching(/application\/xml/) });
  expect(encodeBody(op('calc'), { a: 1 })).toEqual({ contentType: 'application/json', body: '{"a":1}' });
});
