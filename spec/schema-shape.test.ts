import { objectShape } from './schema-shape';
import type { Schema } from './schema-shape';

describe('the object shape of branches', () => {
  it('knows a name only one branch requires and none describes (Vonage’s SMS report `account_id`)', () => {
    const schema = {
      oneOf: [
        {
          type: 'object',
          required: ['account_id', 'direction'],
          properties: { direction: { type: 'string' } },
        },
        { type: 'object', properties: { status: { type: 'string' } } },
      ],
    } as Schema;
    const shape = objectShape(schema);
    expect([...(shape?.mentioned ?? [])].sort()).toEqual(['account_id', 'direction']);
    expect([...(shape?.required ?? [])]).toEqual([]);
  });
});
