import { idsWith, runAgainst } from '../../test/support/helpers';
import { startReferenceServer, type Fault } from '../../test/support/reference-server';

// Each deliberately broken server has one fault; the run fails exactly the rules that fault breaks.
const CASES: Array<[Fault, string[]]> = [
  [
    'wrong-status',
    [
      'body.createCategory.valid',
      'body.generated-valid',
      'categories.create-201',
      'crud.categories.create',
      'response.documented-status',
    ],
  ],
  [
    'non-error-body',
    [
      'assume.media-type-415',
      'assume.non-json-415',
      'assume.undocumented-method-405',
      'assume.unknown-path-404',
      'auth.empty-bearer',
      'auth.missing-key',
      'auth.unknown-key',
      'auth.wrong-scheme',
      'body.createCategory.malformed-json',
      'body.createCategory.missing-name',
      'body.createCategory.not-an-object',
      'body.createCategory.type-description',
      'body.createCategory.type-name',
      'body.createCategory.unknown-property',
      'categories.400-malformed-json',
      'categories.400-missing-name',
      'categories.400-name-type',
      'categories.400-non-object',
      'errors.error-body',
      'quota.429-after-limit',
      'response.body-schema',
    ],
  ],
  ['missing-rate-limit-header', ['response.headers']],
  ['no-429', ['quota.429-after-limit', 'quota.burst-exact']],
  ['429-without-retry-after', ['quota.429-after-limit', 'ratelimit.ietf-retry-after', 'response.headers']],
  ['state-not-kept', ['categories.created-listed', 'crud.categories.listed']],
  ['id-as-string', ['categories.create-201', 'crud.categories.create', 'response.body-schema']],
  ['ietf-bad-syntax', ['ratelimit.ietf-syntax']],
  ['ietf-r-above-q', ['ratelimit.ietf-quota']],
  ['ietf-no-countdown', ['ratelimit.ietf-countdown']],
  ['ietf-early-retry-after', ['ratelimit.ietf-retry-after']],
  [
    'auth-ignored',
    [
      'auth.empty-bearer',
      'auth.missing-key',
      'auth.unknown-key',
      'auth.wrong-scheme',
      'ops.orders-listing',
      'ops.pet-lookup',
    ],
  ],
];

describe.each(CASES)('a server with the fault %s', (fault, broken) => {
  it(`fails exactly ${broken.join(', ')}, with evidence`, async () => {
    const server = await startReferenceServer({ fault });
    try {
      const report = await runAgainst(server.url);
      expect(idsWith(report, 'fail')).toEqual([...broken].sort());
      for (const rule of report.rules.filter((r) => r.status === 'fail')) {
        expect(rule.evidence.length).toBeGreaterThan(0);
        for (const e of rule.evidence) {
          expect(e.problem).not.toBe('');
          expect(e.request?.url).toContain(new URL(server.url).host);
          expect(JSON.stringify(e)).not.toMatch(/good-key|quota-key/);
        }
      }
    } finally {
      await server.close();
    }
  });
});
