/**
 * Issue 22: the fetch and MSW entries take a large document object (as a browser page passes it) and start
 * without compiling a validator; the first request compiles what it uses, and is answered.
 */
import { setupServer } from 'msw/node';
import { syntheticDocument } from '../bench/lib/synthetic-document';
import { createFetchHandler } from '../mock/adapters/fetch';
import { createMswHandlers } from '../mock/adapters/msw';

const KEY = 'large-entries-key-0123456789';
const keys = [{ key: KEY, plan: 'pro' as const }];
const auth = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

it('the fetch entry starts on 5,000 operations with no validator compiled, then compiles on use', async () => {
  const handle = await createFetchHandler({ document: syntheticDocument(5000), keys });
  expect(handle.deps.spec.operations).toHaveLength(5000);
  expect(handle.deps.spec.compiledValidators).toBe(0);
  const res = await handle(
    new Request('https://synthetic.example.com/v1/r999', {
      method: 'POST',
      headers: auth,
      body: '{"name":"n"}',
    }),
  );
  expect(res.status).toBe(201);
  expect(handle.deps.spec.compiledValidators).toBeGreaterThan(0);
  expect(handle.deps.spec.compiledValidators).toBeLessThanOrEqual(3);
});

it('the MSW entry serves a 5,000-operation document in msw/node', async () => {
  const handlers = await createMswHandlers({ document: syntheticDocument(5000), keys });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const made = await fetch('https://synthetic.example.com/v1/r432', {
      method: 'POST',
      headers: auth,
      body: '{"name":"from msw"}',
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const read = await fetch(`https://synthetic.example.com/v1/r432/${id}`, { headers: auth });
    expect(await read.json()).toMatchObject({ id, name: 'from msw' });
  } finally {
    server.close();
  }
});
