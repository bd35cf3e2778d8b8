import path from 'node:path';
import { loadSpecOrThrow } from '../../spec/load';
import { inferResources } from '../../spec/resources';
import { crudCheck } from './crud';

it('runs each lifecycle alone, before the checks that run side by side (none writes its item under it)', async () => {
  const spec = await loadSpecOrThrow(
    path.join(__dirname, '..', '..', 'fixtures', 'specs', 'params-forms-31.yaml'),
  );
  const model = inferResources(spec);
  if (!model.ok) throw new Error(model.error);
  expect(model.model.resources.length).toBeGreaterThan(0);
  for (const resource of model.model.resources) expect(crudCheck(resource).phase).toBe('first');
});
