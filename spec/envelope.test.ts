import path from 'node:path';
import { envelopeOfCreate, mapItem, unwrap, wrapAs, wrapperOf } from './envelope';
import { loadSpecOrThrow } from './load';
import { describeResources, inferResources } from './resources';

const article = { type: 'object', properties: { title: { type: 'string' } } };

describe('wrapperOf', () => {
  it.each([
    ['one property holding an object', { type: 'object', properties: { article } }, 'article'],
    ['two properties', { type: 'object', properties: { article, meta: article } }, undefined],
    [
      'one property holding a string',
      { type: 'object', properties: { name: { type: 'string' } } },
      undefined,
    ],
    [
      'one property holding an array',
      { type: 'object', properties: { items: { type: 'array' } } },
      undefined,
    ],
    ['an object without properties inside', { properties: { data: { type: 'object' } } }, undefined],
  ])('%s', (_, schema, property) => {
    expect(wrapperOf(schema)?.property).toBe(property);
  });
});

describe('wrapping values', () => {
  const wrapped = { type: 'object', properties: { article } };
  it('unwraps only what is wrapped under the name', () => {
    expect(unwrap({ article: { title: 'a' } }, 'article')).toEqual({ title: 'a' });
    expect(unwrap({ title: 'a' }, 'article')).toEqual({ title: 'a' });
    expect(unwrap({ article: 'text' }, 'article')).toEqual({ article: 'text' });
    expect(unwrap({ article: { title: 'a' } }, undefined)).toEqual({ article: { title: 'a' } });
  });
  it('wraps as the schema says', () => {
    expect(wrapAs(wrapped, 'article', { title: 'a' })).toEqual({ article: { title: 'a' } });
    expect(wrapAs(article, 'article', { title: 'a' })).toEqual({ title: 'a' });
  });
  it('changes the item inside the envelope', () => {
    const add = (i: Record<string, unknown>) => ({ ...i, id: 1 });
    expect(mapItem({ article: { title: 'a' } }, 'article', add)).toEqual({ article: { title: 'a', id: 1 } });
    expect(mapItem({ title: 'a' }, undefined, add)).toEqual({ title: 'a', id: 1 });
  });
});

describe('a blog whose bodies are wrapped (issue 26.1)', () => {
  it('is one resource: wrapped bodies, the slug as id, lists in .articles, the server fills the rest', async () => {
    const spec = await loadSpecOrThrow(
      path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'blog-31.yaml'),
    );
    expect(envelopeOfCreate(spec.byId.get('createArticle'))).toBe('article');
    const result = inferResources(spec);
    if (!result.ok) throw new Error(result.error);
    expect(describeResources(result.model)).toContain(
      'articles: /articles + /articles/{slug}; create, list, read, replace, patch, remove; key /slug (string, server); bodies in .article; list in .articles; a replace keeps what it does not send',
    );
    const articles = result.model.resources.find((r) => r.name === 'articles');
    expect(articles?.serverFilled).toEqual(['favorited', 'favoritesCount', 'author']);
    expect(articles?.readOnly).toEqual(['createdAt', 'updatedAt']);
    expect(result.model.itemScopes.get('favoriteArticle')?.echo).toBe(true);
  });
});

describe('envelopeOfCreate of a plain body answered in a wrapper', () => {
  it('reads the wrapper whose inside holds a field the body sends (data), whatever its name', async () => {
    const spec = await loadSpecOrThrow(
      path.join(__dirname, '..', 'fixtures', 'specs', 'kit-classes-31.yaml'),
    );
    expect(envelopeOfCreate(spec.byId.get('createAsset'))).toBe('data');
    const result = inferResources(spec);
    if (!result.ok) throw new Error(result.error);
    expect(result.model.resources.find((r) => r.name === 'assets')?.idField).toBe('id');
  });
});
