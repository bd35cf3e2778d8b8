/**
 * Issue 38: a resource the mock recognises is one the runner's lifecycle walks. On fixtures/specs/resources-31.yaml
 * (a singular item path, a create answering only `{"widgetID": …}`, a POST update, a `2XX` create) the runner
 * reads each create's id where the document puts it (spec/created-id.ts) and fails nothing against the mock.
 */
import path from 'node:path';
import { createMockServer } from '../../mock/node';
import { runConformance } from '../../conformance/index';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'resources-31.yaml');

it('walks every resource of the document against the mock, every rule holding', async () => {
  const mock = await createMockServer({
    specPath: SPEC,
    keys: [{ key: 'conformance-main-key', plan: 'pro' }],
    seedFile: null,
    quiet: true,
  });
  const target = await mock.listen(0, '127.0.0.1');
  try {
    const report = await runConformance({ target, key: 'conformance-main-key', specFile: SPEC, seed: 2 });
    expect(report.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
    const walked = report.rules.filter((r) => /^crud\.widgets\./.test(r.id) && r.status === 'pass');
    expect(walked.map((r) => r.id)).toEqual(
      expect.arrayContaining(['crud.widgets.create', 'crud.widgets.read', 'crud.widgets.delete']),
    );
  } finally {
    await mock.close();
  }
});
