import path from 'node:path';
import { idFromLocation, sweepDocument } from './sweep-worker';
import { loadSpecOrThrow } from '../../spec/load';
import { createFetchHandler } from '../../mock/adapters/fetch';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'public', 'xml-examples-40.yaml');

describe("the sweep's plan through Prism's proxy", () => {
  it('asks ours directly when Prism gives no answer, and counts that apart, not against ours', async () => {
    const spec = await loadSpecOrThrow(FILE);
    const handler = await createFetchHandler({ document: spec });
    const call = (req: Request): Promise<Response> =>
      new URL(req.url).host === 'prism.test' ? Promise.reject(new Error('fetch failed')) : handler(req);
    const answers = await sweepDocument({
      spec,
      call,
      base: 'http://mock.test',
      key: 'k',
      prism: { base: 'http://prism.test' },
    });
    expect(answers.length).toBeGreaterThan(0);
    for (const a of answers) {
      expect(a.problems).toEqual([]);
      expect(a.prism).toBeUndefined();
      expect(a.prismRequest).toEqual(['Prism gave no answer: fetch failed']);
    }
  });
});

describe("the plan's read-back of a create answered with a Location only", () => {
  it.each([
    ['/poi/2', '2'],
    ['https://api.example.com/v1/webhooks/a%20b?x=1', 'a b'],
    ['/items/', 'items'],
    [undefined, undefined],
  ])('%s names the item %s', (location, id) => {
    expect(idFromLocation(location)).toBe(id);
  });
});
