/**
 * The lifecycle's create after a 5xx: once more with only the required fields, so that the steps that need an
 * item still run (a server that cannot serve an optional field, such as an address its geocoder must find).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '..';

const DOC = `
openapi: 3.0.3
info: { title: todos, version: '1' }
paths:
  /todos:
    post:
      operationId: createTodo
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewTodo' } } }
      responses:
        '200': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Todo' } } } }
  /todos/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: findTodo
      responses:
        '200': { description: it, content: { application/json: { schema: { $ref: '#/components/schemas/Todo' } } } }
        '404': { description: none }
components:
  schemas:
    NewTodo:
      type: object
      required: [title]
      properties: { title: { type: string }, address: { type: string } }
    Todo:
      type: object
      required: [id, title]
      properties: { id: { type: integer }, title: { type: string }, address: { type: string } }
`;

const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-')), 'todos.yaml');
fs.writeFileSync(file, DOC);

/** Answers 500 to a create carrying `address`; keeps the others. */
function todoServer(): (request: Request) => Promise<Response> {
  const items = new Map<number, Record<string, unknown>>();
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/todos') {
      const body = (await request.json()) as Record<string, unknown>;
      if ('address' in body) return json(500, { error: 'geocoder unreachable' });
      const item = { ...body, id: items.size + 1 };
      items.set(item.id, item);
      return json(200, item);
    }
    const found = items.get(Number(/^\/todos\/(\d+)$/.exec(pathname)?.[1]));
    return found ? json(200, found) : json(404, { error: 'none' });
  };
}

it('retries a create refused with a 5xx with the required fields only, and the lifecycle goes on', async () => {
  const report = await runConformance({
    target: 'http://todos.test',
    key: '',
    specFile: file,
    scenariosDir: 'none',
    seed: 3,
    rules: ['crud.todos.create', 'crud.todos.read'],
    fetch: todoServer(),
  });
  const rule = (id: string) => report.rules.find((r) => r.id === id);
  // The 500 stays a finding of the create; the read runs on the item the second create made.
  expect(rule('crud.todos.create')?.status).toBe('fail');
  expect(rule('crud.todos.create')?.evidence[0]?.problem).toMatch(/answered 500/);
  expect(rule('crud.todos.read')?.status).toBe('pass');
});
