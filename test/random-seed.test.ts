/**
 * Issue 38: invented values are reproducible. Two mocks started with the same `--random-seed`, on the same
 * clock, given the same requests, answer the same bytes: the ids they invent (UUIDs, ids in the form the
 * examples show), the values they make up, an error's own id. Another seed draws other ids.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../mock/node/index';
import { createTestMock, testClock } from './support/mock-harness';

const json = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const item = (id: unknown) => ({
  type: 'object',
  required: ['id', 'name', 'created_at', 'email'],
  properties: {
    id,
    name: { type: 'string' },
    created_at: { type: 'string', format: 'date-time', readOnly: true },
    email: { type: 'string', format: 'email', readOnly: true },
  },
});
const problem = json({
  type: 'object',
  required: ['message', 'debug_id'],
  properties: { message: { type: 'string' }, debug_id: { type: 'string' } },
});
const collection = (name: string, id: unknown) => ({
  [`/${name}`]: {
    get: { operationId: `list_${name}`, responses: { '200': json({ type: 'array', items: item(id) }) } },
    post: {
      operationId: `create_${name}`,
      requestBody: {
        content: {
          'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      responses: { '201': json(item(id)), '404': problem },
    },
  },
  [`/${name}/{id}`]: {
    get: {
      operationId: `get_${name}`,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': json(item(id)), '404': problem },
    },
  },
});
const document = {
  openapi: '3.1.0',
  info: { title: 'seeded', version: '1' },
  paths: {
    ...collection('widgets', { type: 'string', format: 'uuid', readOnly: true }),
    ...collection('customers', { type: 'string', readOnly: true, example: 'cus_8f3a2b9c1d' }),
  },
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'random-seed-'));
const specPath = path.join(dir, 'seeded.json');
fs.writeFileSync(specPath, JSON.stringify(document));
const mocks: MockServer[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The same requests against a fresh mock of `randomSeed`; every answer's body, in order. */
async function session(randomSeed: number): Promise<unknown[]> {
  const mock = await createTestMock({ specPath, seedFile: null, clock: testClock(), randomSeed });
  mocks.push(mock);
  const http = request(await mock.listen());
  const out: unknown[] = [];
  for (const name of ['widgets', 'customers']) {
    for (const n of ['a', 'b', 'c']) out.push((await http.post(`/${name}`).send({ name: n })).body);
    out.push((await http.get(`/${name}`)).body);
    out.push((await http.get(`/${name}/missing`)).body);
  }
  return out;
}

describe('--random-seed', () => {
  it('gives the same ids, values and error ids for the same seed and requests; other ids for another', async () => {
    const first = await session(7);
    const again = await session(7);
    expect(again).toEqual(first);
    const widget = first[0] as { id: string; created_at: string };
    expect(widget.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((first[5] as { id: string }).id).toMatch(/^cus_[0-9a-z]{10}$/i);
    expect((first[4] as { debug_id: string }).debug_id).toEqual(expect.any(String));
    const other = await session(8);
    expect((other[0] as { id: string }).id).not.toBe(widget.id);
    expect((other[5] as { id: string }).id).not.toBe((first[5] as { id: string }).id);
  });
});
