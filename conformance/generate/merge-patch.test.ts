import type { Resource } from '../../spec/resources';
import { seededRandom } from '../../spec/random';
import { mergePatchPlan } from './merge-patch';

it('never patches the id that names the item (a server keeps the path id, rightly)', () => {
  const schema = {
    type: 'object' as const,
    properties: {
      id: { type: 'number' as const },
      title: { type: 'string' as const },
      tag: { type: 'string' as const },
    },
  };
  const resource = { idField: 'id', readOnly: [], itemSchema: schema } as unknown as Resource;
  const plans = mergePatchPlan(schema, resource, { title: 'a', tag: 'b' }, seededRandom(1), 'p');
  expect(plans.length).toBeGreaterThan(0);
  expect(plans.flatMap((p) => Object.keys(p.patch))).not.toContain('id');
});
