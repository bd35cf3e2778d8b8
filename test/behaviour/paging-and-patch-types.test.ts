/**
 * Issue 38: list envelopes tell the truth about the next page in the fields paging clients loop on
 * (`metadata.continue`, `nextPageToken`, `has_more` + `starting_after`), and a PATCH takes the patch type its
 * Content-Type names (fixtures/specs/paging-patch-31.yaml: every patch type documented as `type: object`).
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'paging-patch-31.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const api = () => request(base);
const configs = '/namespaces/default/configs';

/** Every page a client following the list's own token gets, as it would (bounded, so a loop fails the test). */
async function follow(first: string, next: (body: Record<string, unknown>) => string | undefined) {
  const pages: Record<string, unknown>[] = [];
  let url: string | undefined = first;
  while (url && pages.length < 10) {
    const res = await api().get(url);
    expect(res.status).toBe(200);
    pages.push(res.body);
    url = next(res.body);
  }
  return pages;
}

describe('the next page token', () => {
  it('is left out on the last page and is the cursor the list takes back before it (metadata.continue)', async () => {
    for (const name of ['a', 'b', 'c'])
      expect((await api().post(configs).send({ metadata: { name } })).status).toBe(201);
    const all = await api().get(configs);
    expect(all.body.metadata).not.toHaveProperty('continue');
    const pages = await follow(`${configs}?limit=2`, (b) => {
      const token = (b.metadata as { continue?: string }).continue;
      return token ? `${configs}?limit=2&continue=${encodeURIComponent(token)}` : undefined;
    });
    const names = pages.flatMap((p) =>
      (p.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
    );
    expect(names).toEqual(['a', 'b', 'c']);
  });

  it('is empty on the last page where the schema requires it (nextPageToken)', async () => {
    for (const label of ['x', 'y', 'z'])
      expect((await api().post('/buckets').send({ label })).status).toBe(200);
    expect((await api().get('/buckets')).body.nextPageToken).toBe('');
    const pages = await follow('/buckets?maxResults=2', (b) =>
      b.nextPageToken ? `/buckets?maxResults=2&pageToken=${b.nextPageToken as string}` : undefined,
    );
    expect(pages.map((p) => (p.buckets as unknown[]).length)).toEqual([2, 1]);
  });

  it('pages by the id of the last item seen (has_more and starting_after)', async () => {
    for (const amount of [1, 2, 3])
      expect(
        (
          await api()
            .post('/charges')
            .type('form')
            .send({ amount: String(amount) })
        ).status,
      ).toBe(200);
    const pages = await follow('/charges?limit=2', (b) => {
      const data = b.data as { id: string }[];
      return b.has_more ? `/charges?limit=2&starting_after=${data[data.length - 1]?.id ?? ''}` : undefined;
    });
    const amounts = pages.flatMap((p) => (p.data as { amount: number }[]).map((c) => c.amount));
    expect(amounts).toEqual([1, 2, 3]);
    expect(pages[pages.length - 1]?.has_more).toBe(false);
  });
});

describe('a PATCH documented under several patch types', () => {
  beforeEach(async () => {
    expect(
      (
        await api()
          .post(configs)
          .send({ metadata: { name: 'cm' }, data: { a: '1' } })
      ).status,
    ).toBe(201);
  });

  it('merges a strategic or merge patch', async () => {
    for (const type of ['application/strategic-merge-patch+json', 'application/merge-patch+json']) {
      const res = await api().patch(`${configs}/cm`).set('Content-Type', type).send('{"data":{"b":"2"}}');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ a: '1', b: '2' });
    }
  });

  it('applies a JSON Patch (an array, by its media type) though the schema says object', async () => {
    const ops = [{ op: 'add', path: '/data/c', value: '3' }];
    const res = await api()
      .patch(`${configs}/cm`)
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify(ops));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ a: '1', c: '3' });
    const bad = await api()
      .patch(`${configs}/cm`)
      .set('Content-Type', 'application/json-patch+json')
      .send('[{"op":"bogus","path":"/data"}]');
    expect(bad.status).toBe(400);
    expect((await api().get(`${configs}/cm`)).body.data).toEqual({ a: '1', c: '3' });
  });

  it('keeps the field the path sets through a replace', async () => {
    const res = await api()
      .put(`${configs}/cm`)
      .send({ metadata: { name: 'cm' }, data: { z: '9' } });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ name: 'cm', namespace: 'default' });
  });
});
