import { checkStructure } from './check-structure';

const doc = (extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': { $ref: '#/components/responses/Things' } } },
    },
  },
  components: { responses: { Things: { description: 'ok' } } },
  ...extra,
});

describe('checkStructure', () => {
  it('accepts a valid document with its $refs as written', () => {
    expect(() => checkStructure(doc())).not.toThrow();
  });

  it('accepts a described server variable (the published schema spells it `descriptions`)', () => {
    const servers = [{ url: '{base}/v1', variables: { base: { default: 'x', description: 'where' } } }];
    expect(() => checkStructure(doc({ servers }))).not.toThrow();
  });

  it('refuses a wrong type, naming the JSON pointer', () => {
    const bad = doc();
    (bad.paths['/things'].get as Record<string, unknown>).deprecated = 'maybe';
    expect(() => checkStructure(bad)).toThrow(/#\/paths\/~1things\/get\/deprecated must be boolean/);
  });

  it('refuses an unknown server variable field', () => {
    const servers = [{ url: '{base}', variables: { base: { default: 'x', descriptions: 'typo' } } }];
    expect(() => checkStructure(doc({ servers }))).toThrow(/#\/servers\/0\/variables\/base/);
  });
});
