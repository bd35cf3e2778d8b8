/** operations.reached addresses a write to a value that names nothing: never an item another check works on. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../index';

const DOC = `
openapi: 3.0.3
info: { title: todos, version: '1' }
paths:
  /todos/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: findTodo
      responses: { '200': { description: it } }
    put:
      operationId: replaceTodo
      requestBody:
        content: { application/json: { schema: { type: object, properties: { title: { type: string } } } } }
      responses: { '204': { description: replaced }, '404': { description: none } }
`;

it('sends a write to a well-formed id no run made, a read to a generated one', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'every-op-')), 'todos.yaml');
  fs.writeFileSync(file, DOC);
  const sent: string[] = [];
  await runConformance({
    target: 'http://todos.test',
    key: '',
    specFile: file,
    scenariosDir: 'none',
    seed: 3,
    rules: ['operations.reached'],
    fetch: (request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return Promise.resolve(new Response(null, { status: request.method === 'PUT' ? 404 : 200 }));
    },
  });
  expect(sent).toContain('PUT /todos/2147483000');
  expect(sent.some((s) => s.startsWith('GET /todos/'))).toBe(true);
});
