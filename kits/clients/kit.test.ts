/** The kit's "not applicable": a wrong-key step on a document that declares no security (OpenAI's, Hetzner's). */
import { notApplicable, type Step } from './kit';
import { table } from './run';

const wrongKey: Step<unknown> = {
  name: 'wrong key is 401',
  requires: 'security',
  run: async () => undefined,
};
const plain: Step<unknown> = { name: 'list', run: async () => undefined };
const schemes = { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } };

describe('notApplicable', () => {
  it.each([
    ['no scheme at all', {}, true],
    ['schemes declared but never required', { ...schemes, paths: { '/a': { get: {} } } }, true],
    ['an empty requirement only', { ...schemes, security: [{}] }, true],
    ['a document-wide requirement', { ...schemes, security: [{ bearer: [] }] }, false],
    [
      'one operation requiring it',
      { ...schemes, paths: { '/a': { get: { security: [{ bearer: [] }] } } } },
      false,
    ],
    [
      'Swagger 2 definitions and a requirement',
      { securityDefinitions: { k: {} }, security: [{ k: [] }] },
      false,
    ],
  ])('a wrong-key step on %s', (_name, doc, na) => {
    expect(notApplicable(wrongKey, doc) !== null).toBe(na);
    expect(notApplicable(plain, doc)).toBeNull();
  });

  it('counts a step not applicable on neither side of the totals', () => {
    const why = 'the document declares no security scheme';
    const out = table([
      {
        client: 'c',
        document: 'd',
        ours: [
          { step: 'list', failure: null },
          { step: 'wrong key is 401', failure: null, notApplicable: why },
        ],
        prism: [
          { step: 'list', failure: 'no' },
          { step: 'wrong key is 401', failure: null, notApplicable: why },
        ],
      },
    ]);
    expect(out).toContain(`| c | wrong key is 401 | n/a: ${why} | n/a: ${why} |`);
    expect(out).toContain('ours: 1 of 1 steps pass; Prism: 0 of 1; 1 not applicable to their document.');
  });
});
