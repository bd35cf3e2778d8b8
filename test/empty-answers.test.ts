/**
 * Issue 21, point 3: a response documented without content has no body and no Content-Type (`res.json()` is
 * not promised a body that is not there); 204 and 304 never have one; HEAD has none. Errors keep their JSON
 * shape, and every answer keeps the rate-limit headers. Run on the node:http, fetch and MSW adapters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { createFetchHandler } from '../mock/adapters/fetch';
import { createMswHandlers } from '../mock/adapters/msw';
import type { MockServer } from '../mock/node/index';
import { createTestMock, testClock } from './support/mock-harness';

const SPEC = path.join(__dirname, '..', 'fixtures', 'specs', 'empty-answers-31.yaml');
const document = () => parse(fs.readFileSync(SPEC, 'utf8')) as never;
type Send = (
  method: string,
  url: string,
  init?: { body?: unknown; headers?: Record<string, string> },
) => Promise<Response>;

const request = (
  base: string,
  method: string,
  url: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
) =>
  new Request(base + url, {
    method,
    headers: { ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });

let mock: MockServer;
let msw: ReturnType<typeof setupServer>;
const adapters: Record<string, Send> = {};
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, clock: testClock() });
  const base = await mock.listen();
  adapters['node-http'] = (m, u, i) => fetch(request(base, m, u, i));
  const handler = await createFetchHandler({ document: document() });
  adapters.fetch = (m, u, i) => handler(request('http://127.0.0.1', m, u, i));
  msw = setupServer(...(await createMswHandlers({ document: document(), baseUrl: 'http://empty.test' })));
  msw.listen({ onUnhandledRequest: 'bypass' });
  adapters.msw = (m, u, i) => fetch(request('http://empty.test', m, u, i));
});
afterAll(async () => {
  msw.close();
  await mock.close();
});

const expectEmpty = async (res: Response) => {
  expect(res.headers.get('content-type')).toBeNull();
  expect(await res.text()).toBe('');
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
};

describe.each(['node-http', 'fetch', 'msw'])('%s', (name) => {
  const send: Send = (...args) => (adapters[name] as Send)(...args);

  it('a 200 documented without content (DELETE "Note deleted") has no body and no Content-Type', async () => {
    const made = await send('POST', '/notes', { body: { text: 'bye' } });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const res = await send('DELETE', `/notes/${id}`);
    expect(res.status).toBe(200);
    await expectEmpty(res);
  });

  it('a 304 asked for with Prefer has no body and no Content-Type', async () => {
    const res = await send('GET', '/notes', { headers: { Prefer: 'code=304' } });
    expect(res.status).toBe(304);
    await expectEmpty(res);
  });

  it('HEAD has no body but the media type GET would have', async () => {
    const res = await send('HEAD', '/notes');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe('');
  });

  it('an error stays the JSON error shape even where the document gives the status no content', async () => {
    const res = await send('DELETE', '/notes/987654');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(await res.json()).toMatchObject({ status: 404 });
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });
});
