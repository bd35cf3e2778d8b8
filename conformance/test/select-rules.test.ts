import { selectRules } from '../load/select-rules';
import { RULES } from '../rules';

const ids = (sel: Parameters<typeof selectRules>[1]) => {
  const result = selectRules(RULES, sel);
  if (!result.ok) throw new Error(result.error);
  return result.rules.map((r) => r.id);
};

describe('selectRules', () => {
  it('leaves quota rules out by default and adds them with --include quota', () => {
    expect(ids({}).some((id) => id.startsWith('quota.'))).toBe(false);
    expect(ids({ include: ['quota'] })).toEqual(RULES.map((r) => r.id));
  });

  it('narrows to an included ordinary tag, and --exclude removes', () => {
    expect(ids({ include: ['auth'] })).toEqual([
      'auth.missing-key',
      'auth.wrong-scheme',
      'auth.empty-bearer',
      'auth.unknown-key',
    ]);
    expect(ids({ exclude: ['assumption'] }).some((id) => id.startsWith('assume.'))).toBe(false);
  });

  it('--rule names rules, quota ones included', () => {
    expect(ids({ rules: ['quota.burst-exact', 'ops.pet-lookup'] })).toEqual([
      'quota.burst-exact',
      'ops.pet-lookup',
    ]);
  });

  it('refuses unknown tags and rules', () => {
    expect(selectRules(RULES, { include: ['nope'] })).toMatchObject({ ok: false });
    expect(selectRules(RULES, { rules: ['nope'] })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nope/),
    });
  });

  it('has unique ids, a § source and a kind for every rule', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const rule of RULES) {
      expect(rule.source).toMatch(/^§\d$/);
      expect(rule.kind === 'assumption').toBe(rule.id.startsWith('assume.'));
    }
  });
});
