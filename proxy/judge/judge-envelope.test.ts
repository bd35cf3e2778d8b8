/**
 * The traffic judge follows items inside an envelope (issue 26.1): on the blog, whose bodies are
 * `{"article": {...}}`, a create is tracked by the slug inside, an update is expected on the next read, and a
 * list that lacks the created article is a violation.
 */
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { createJudge, type Judge } from './judge';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'blog-31.yaml');
const AUTH = { authorization: 'Token k', 'content-type': 'application/json' };
const article = (title: string) => ({
  slug: 'dragons',
  title,
  description: 'd',
  body: 'b',
  tagList: [],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  favorited: false,
  favoritesCount: 0,
  author: { username: 'jake', following: false },
});

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(FILE);
});

function exchange(judge: Judge, method: string, url: string, body: unknown, status: number, answer: unknown) {
  const req = {
    method,
    url: `/api${url}`,
    headers: AUTH,
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const seen = judge.request(req);
  judge.response(req, seen.route, seen.problems, {
    status,
    headers: { 'content-type': 'application/json' },
    body: answer === undefined ? '' : JSON.stringify(answer),
  });
}

const stateRules = (judge: Judge) =>
  judge
    .snapshot()
    .violations.map((v) => v.rule)
    .filter((r) => r.startsWith('state.'));

it('tracks a wrapped create by the id inside, and judges the next read and list by it', () => {
  const judge = createJudge(spec, Date.now);
  const sent = { title: 'Dragons', description: 'd', body: 'b' };
  exchange(judge, 'POST', '/articles', { article: sent }, 201, { article: article('Dragons') });
  exchange(judge, 'PUT', '/articles/dragons', { article: { ...sent, title: 'Wyverns' } }, 200, {
    article: article('Wyverns'),
  });
  exchange(judge, 'GET', '/articles/dragons', undefined, 200, { article: article('Dragons') });
  exchange(judge, 'GET', '/articles', undefined, 200, { articles: [], articlesCount: 0 });
  expect(stateRules(judge).sort()).toEqual(['state.created-listed', 'state.update-reflected']);
});

it('finds nothing wrong when the server keeps what it was sent', () => {
  const judge = createJudge(spec, Date.now);
  const sent = { title: 'Dragons', description: 'd', body: 'b' };
  exchange(judge, 'POST', '/articles', { article: sent }, 201, { article: article('Dragons') });
  exchange(judge, 'GET', '/articles/dragons', undefined, 200, { article: article('Dragons') });
  exchange(judge, 'GET', '/articles', undefined, 200, { articles: [article('Dragons')], articlesCount: 1 });
  expect(stateRules(judge)).toEqual([]);
  expect(judge.snapshot().violations).toEqual([]);
});
