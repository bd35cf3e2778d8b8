/** The rule ids are one typed table: a misspelt id does not compile, and the lists derived from it agree. */
import { RESPONSE_RULES } from '../spec/http/response-checks';
import { ENGINE_RULE_TABLE, ENGINE_RULES, PET_STORE_RULE_IDS, type RuleId } from './rules';
import { fail, pass, skip, type Check } from './send/check-context';

it('refuses an id that is not in the table, at compile time', () => {
  // @ts-expect-error: a misspelt engine rule id
  pass('methods.undocumnted');
  // @ts-expect-error: a check may not list an id the table lacks
  const listed: Check['rules'] = ['response.no5xx'];
  // @ts-expect-error: a generated id keeps a known prefix
  const generated: RuleId = 'crd.pets.create';
  expect([listed, generated]).toHaveLength(2);
  expect(fail('crud.pets.create', 'x').ruleId).toBe('crud.pets.create');
  expect(skip('fuzz.createPet.random', 'x').ruleId).toBe('fuzz.createPet.random');
});

it('lists each engine rule once, in the table order, with every id the response checks judge', () => {
  const ids = ENGINE_RULES.map((r) => r.id);
  expect(ids).toEqual(Object.keys(ENGINE_RULE_TABLE));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of RESPONSE_RULES) expect(ids).toContain(id);
});

it("marks the pet store's own rules as its document's, and keeps that mark out of the reported rules", () => {
  expect([...PET_STORE_RULE_IDS].sort()).toEqual([
    'assume.other-version-absent',
    'ratelimit.decrement',
    'ratelimit.values',
    'version.v1-segment',
  ]);
  for (const rule of ENGINE_RULES)
    expect(Object.keys(rule)).toEqual(['id', 'title', 'source', 'kind', 'tags']);
});
