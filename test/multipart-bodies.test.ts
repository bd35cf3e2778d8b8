/**
 * Issue 38: a multipart create carries what was sent (OpenAI's `POST /files` is the model): the record's
 * `filename` is the file part's name, `bytes` its size, `mime_type` its type; the form's text fields are stored
 * as JSON fields are (typed and nested by the schema). A body that does not follow its boundary, or has too many
 * parts, is a 400, never a 500.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../mock/node/index';
import { createTestMock, testClock } from './support/mock-harness';

const json = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const file = {
  type: 'object',
  required: ['id', 'filename', 'bytes', 'purpose'],
  properties: {
    id: { type: 'string', readOnly: true },
    filename: { type: 'string' },
    bytes: { type: 'integer' },
    mime_type: { type: 'string' },
    purpose: { type: 'string' },
    copies: { type: 'integer' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
};
const upload = {
  type: 'object',
  additionalProperties: false,
  required: ['file', 'purpose'],
  properties: {
    file: { type: 'string', format: 'binary' },
    purpose: { type: 'string' },
    copies: { type: 'integer' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
};
const document = {
  openapi: '3.1.0',
  info: { title: 'uploads', version: '1' },
  paths: {
    '/files': {
      get: { operationId: 'listFiles', responses: { '200': json({ type: 'array', items: file }) } },
      post: {
        operationId: 'createFile',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: upload } } },
        responses: { '200': json(file) },
      },
    },
    '/files/{file_id}': {
      get: {
        operationId: 'getFile',
        parameters: [{ name: 'file_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': json(file) },
      },
    },
  },
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'multipart-'));
let mock: MockServer;
let http: ReturnType<typeof request>;
beforeAll(async () => {
  const specPath = path.join(dir, 'uploads.json');
  fs.writeFileSync(specPath, JSON.stringify(document));
  mock = await createTestMock({ specPath, seedFile: null, clock: testClock() });
  http = request(await mock.listen());
});
afterAll(async () => {
  await mock.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const raw = (body: string, boundary = 'kitboundary') =>
  http.post('/files').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);

describe('a multipart create', () => {
  it("stores the file part's name, size and type, and the form's fields typed and nested", async () => {
    const content = Buffer.from('{"prompt": "a", "completion": "b"}\n'.repeat(3));
    const made = await http
      .post('/files')
      .field('purpose', 'fine-tune')
      .field('copies', '2')
      .field('labels[team]', 'kit')
      .attach('file', content, { filename: 'data é.jsonl', contentType: 'application/jsonl' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      filename: 'data é.jsonl',
      bytes: content.length,
      mime_type: 'application/jsonl',
      purpose: 'fine-tune',
      copies: 2,
      labels: { team: 'kit' },
    });
    const read = await http.get(`/files/${made.body.id as string}`);
    expect(read.body).toMatchObject({ filename: 'data é.jsonl', bytes: content.length });
    const list = await http.get('/files');
    expect(list.body.map((f: { id: string }) => f.id)).toContain(made.body.id);
  });

  it('checks the fields against the schema as a JSON body is checked', async () => {
    const res = await http
      .post('/files')
      .field('purpose', 'x')
      .field('copies', 'many')
      .attach('file', Buffer.from('x'), 'a.txt');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/copies/);
    expect((await http.post('/files').attach('file', Buffer.from('x'), 'a.txt')).status).toBe(400);
  });

  it.each([
    ['no closing boundary', '--kitboundary\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nx'],
    ['no boundary in the body', 'purpose=x'],
    ['a part without a name', '--kitboundary\r\nContent-Type: text/plain\r\n\r\nx\r\n--kitboundary--\r\n'],
    [
      'more parts than the bound',
      `${'--kitboundary\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nx\r\n'.repeat(101)}--kitboundary--\r\n`,
    ],
  ])('refuses a body with %s: 400', async (_name, body) => {
    const res = await raw(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/multipart/);
  });

  it('refuses a multipart Content-Type without a boundary: 400', async () => {
    const res = await http.post('/files').set('Content-Type', 'multipart/form-data').send('x');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/boundary/);
  });
});
