import { RULES } from '../rules';
import { idsWith, runAgainst } from '../../test/support/helpers';
import { startReferenceServer, type RunningServer } from '../../test/support/reference-server';

let server: RunningServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

describe('a faithful server', () => {
  it('passes every rule, quota rules included, and observes every documented status but three 429s', async () => {
    const report = await runAgainst(server.url);
    const notPassing = report.rules.filter((r) => r.status !== 'pass');
    expect(notPassing).toEqual([]);
    // The catalogue, then the rules generated from spec/openapi.yaml (one resource, one body, one item path).
    const generated = [
      'crud.categories.create',
      'crud.categories.listed',
      'crud.categories.read-only-not-stored',
      'crud.categories.read-only-rejected',
      'body.createCategory.valid',
      'body.createCategory.malformed-json',
      'body.createCategory.not-an-object',
      'body.createCategory.missing-name',
      'body.createCategory.type-name',
      'body.createCategory.type-description',
      'body.createCategory.unknown-property',
      // The stateless parameter case of the one item path with a parameter (issue 39): an unknown id is a 404.
      'params.getPetById.unknown-id',
    ];
    // The pet store documents no callbacks, so the callback rules are not listed (issue 33).
    const listed = RULES.filter((r) => !r.tags.includes('callbacks'));
    expect(report.rules.map((r) => r.id)).toEqual([...listed.map((r) => r.id), ...generated]);
    expect(report.summary).toEqual({ pass: listed.length + generated.length, fail: 0, skip: 0 });
    // Only listCategories is used to spend a quota, so the other operations' 429s stay unobserved.
    const unobserved = report.coverage.filter((c) => !c.observed).map((c) => `${c.operationId} ${c.status}`);
    expect(unobserved).toEqual(['createCategory 429', 'getPetById 429', 'listOrders 429']);
  });

  it('reports in the documented JSON shape', async () => {
    const report = await runAgainst(server.url, { include: [], rules: ['auth.missing-key'] });
    expect(Object.keys(report).sort()).toEqual(
      ['cleanup', 'coverage', 'durationMs', 'rules', 'startedAt', 'summary', 'target'].sort(),
    );
    expect(report.target).toBe(server.url);
    expect(new Date(report.startedAt).toISOString()).toBe(report.startedAt);
    expect(report.rules).toEqual([
      {
        id: 'auth.missing-key',
        title: expect.any(String),
        kind: 'contract',
        source: '§5',
        status: 'pass',
        evidence: [],
      },
    ]);
  });

  it('leaves quota rules out unless they are included', async () => {
    const report = await runAgainst(server.url, { include: [], exclude: ['auth', 'generated'] });
    expect(report.rules.some((r) => r.id.startsWith('quota.'))).toBe(false);
    expect(idsWith(report, 'fail')).toEqual([]);
  });
});
