/**
 * Issue 26.6 at the mock's door: ids in the form a pattern gives, and a form whose space is small (`^t_[0-9]$`,
 * ten ids) filled to the last id, then refused with a 409 that says why, nothing stored.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { createFetchHandler } from '../mock/adapters/fetch';
import { compileSpec } from '../spec/compile';

const token = {
  type: 'object',
  required: ['id', 'label'],
  properties: { id: { type: 'string', readOnly: true, pattern: '^t_[0-9]$' }, label: { type: 'string' } },
};
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const document = {
  openapi: '3.1.0',
  info: { title: 'tokens', version: '1' },
  paths: {
    '/tokens': {
      get: {
        operationId: 'listTokens',
        responses: { '200': { description: 'all', ...json({ type: 'array', items: token }) } },
      },
      post: {
        operationId: 'createToken',
        requestBody: { required: true, ...json(token) },
        responses: { '201': { description: 'made', ...json(token) }, '409': { description: 'full' } },
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;
const KEY = 'id-forms-test-key-0001';

it('fills a small space of ids to the last one, then refuses with 409 saying why', async () => {
  const fetch = await createFetchHandler({
    document: compileSpec('tokens', document, false),
    keys: [{ key: KEY, plan: 'pro' }],
  });
  const create = () =>
    fetch(
      new Request('http://mock.test/tokens', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ label: 'x' }),
      }),
    );
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await create();
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  expect(ids.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `t_${i}`));
  const refused = await create();
  expect(refused.status).toBe(409);
  expect(await refused.text()).toMatch(/every tokens id of the document's form \(t_ \+ 1 digits\) is taken/);
  const list = (await (await fetch(new Request('http://mock.test/tokens'))).json()) as unknown[];
  expect(list).toHaveLength(10);
});
