/**
 * Issue 38: a collection under a parent the document does not publish (`/namespaces/{namespace}/boards`, with
 * no `/namespaces/{namespace}`) keeps its records per parent, and its own sub-collection's items are listed under
 * the parents' parents too (`/namespaces/{namespace}/boards/cards`): fixtures/specs/boards-32.yaml.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'boards-32.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, keys: KEYS, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const auth = { Authorization: 'Bearer ent-key' };
const get = (url: string) => request(base).get(url).set(auth);
const post = (url: string, body: object) => request(base).post(url).set(auth).send(body);

describe('collections under a parent the document does not publish', () => {
  it('keeps boards per namespace: created, read back and listed there only', async () => {
    const made = await post('/namespaces/a/boards', { title: 'plans' });
    expect(made.status).toBe(201);
    expect(made.body.title).toBe('plans');
    await post('/namespaces/b/boards', { title: 'other' });
    expect((await get(`/namespaces/a/boards/${made.body.id as number}`)).body.title).toBe('plans');
    expect((await get('/namespaces/a/boards')).body.map((b: { title: string }) => b.title)).toEqual([
      'plans',
    ]);
    expect((await get('/namespaces/b/boards')).body.map((b: { title: string }) => b.title)).toEqual([
      'other',
    ]);
  });

  it("keeps cards under their board, and lists a namespace's cards of every board, none of another's", async () => {
    const one = await post('/namespaces/a/boards', { title: 'one' });
    const two = await post('/namespaces/a/boards', { title: 'two' });
    const far = await post('/namespaces/b/boards', { title: 'far' });
    const card = await post(`/namespaces/a/boards/${one.body.id as number}/cards`, { text: 'first' });
    expect(card.status).toBe(201);
    await post(`/namespaces/a/boards/${two.body.id as number}/cards`, { text: 'second' });
    await post(`/namespaces/b/boards/${far.body.id as number}/cards`, { text: 'far away' });
    const texts = async (url: string) => (await get(url)).body.map((c: { text: string }) => c.text);
    expect(await texts(`/namespaces/a/boards/${one.body.id as number}/cards`)).toEqual(['first']);
    expect(await texts('/namespaces/a/boards/cards')).toEqual(['first', 'second']);
    expect(await texts('/namespaces/b/boards/cards')).toEqual(['far away']);
    expect(await texts('/namespaces/c/boards/cards')).toEqual([]);
    // A card under a board nobody made is no card.
    expect((await post('/namespaces/a/boards/999/cards', { text: 'lost' })).status).toBe(404);
  });
});
