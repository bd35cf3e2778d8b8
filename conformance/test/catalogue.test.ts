/**
 * The pet store's own rules are data (conformance/scenarios/catalogue/): a run on another document lists none
 * of them, not even as skipped, and sends none of their scenarios; the pet store keeps them in place.
 */
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { loadSpecOrThrow } from '../../spec/load';
import { helpText } from '../help';
import { mergeRules, type CatalogueRule } from '../catalogue';
import { formatReport } from '../../spec/report';
import { CATALOGUE, catalogueFor, ENGINE_RULES, RULES } from '../rules';
import { runConformance } from '../run';
import type { Rule } from '../types';

const ROOT = path.join(__dirname, '..', '..');
const KEY = 'catalogue-test-key-0123456789';
const SHIPPED = CATALOGUE.flatMap((f) => f.rules.map((r) => r.id));
/** The callback rules are listed only on a document whose operations document callbacks (issue 33). */
const everyDocument = (rules: readonly Rule[]) => rules.filter((r) => !r.tags.includes('callbacks'));

async function runOn(file: string, urls: string[]) {
  const spec = await loadSpecOrThrow(file);
  const handler = await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });
  return runConformance({
    target: `http://mock.test${spec.basePath}`,
    key: KEY,
    specFile: file,
    seed: 3,
    maxWaitMs: 2000,
    include: ['quota'],
    fetch: (req) => (urls.push(`${req.method} ${new URL(req.url).pathname}`), handler(req)),
  });
}

describe('the pet store catalogue', () => {
  it('is shipped: categories.*, ops.* and assume.non-json-415', () => {
    expect(SHIPPED).toEqual(
      expect.arrayContaining(['categories.create-201', 'ops.pet-lookup', 'assume.non-json-415']),
    );
    expect(ENGINE_RULES.some((r) => SHIPPED.includes(r.id))).toBe(false);
  });

  it.each(['shop-31.yaml', 'crud-30.yaml', 'library-31.yaml'])(
    'lists none of its rules on %s, and sends none of their scenarios',
    async (name) => {
      const urls: string[] = [];
      const report = await runOn(path.join(ROOT, 'fixtures', 'specs', 'wild', name), urls);
      const ids = report.rules.map((r) => r.id);
      expect(ids.filter((id) => SHIPPED.includes(id))).toEqual([]);
      expect(ids.filter((id) => /^(categories|ops)\./.test(id))).toEqual([]);
      expect(formatReport(report, 'human', {})).not.toMatch(/categories\.|ops\.pet|non-json-415/);
      expect(urls.filter((u) => u.includes('/categories'))).toEqual([]);
      // The engine's rules are all there, but for the callback rules: these documents document none.
      expect(ids).toEqual(expect.arrayContaining(everyDocument(ENGINE_RULES).map((r) => r.id)));
      expect(ids.filter((id) => id.startsWith('callbacks.'))).toEqual([]);
    },
  );

  it('keeps every rule in place on the pet store', async () => {
    const report = await runOn(path.join(ROOT, 'spec', 'openapi.yaml'), []);
    const catalogue = report.rules.map((r) => r.id).filter((id) => RULES.some((r) => r.id === id));
    expect(catalogue).toEqual(everyDocument(RULES).map((r) => r.id));
    expect(catalogue.indexOf('categories.create-201')).toBe(catalogue.indexOf('auth.unknown-key') + 1);
  });

  it('--rule of a pet store rule on another document says which operation is missing', async () => {
    const file = path.join(ROOT, 'fixtures', 'specs', 'wild', 'crud-30.yaml');
    await expect(
      runConformance({ target: 'http://mock.test/api', key: KEY, specFile: file, rules: ['ops.pet-lookup'] }),
    ).rejects.toThrow('rule "ops.pet-lookup" needs the operation getPetById, which the document lacks');
  });

  it('lists a rule only when the document has every operation it names', () => {
    const withCreate = catalogueFor(new Set(['createCategory']));
    expect(withCreate.rules.map((r) => r.id)).toContain('categories.create-201');
    expect(withCreate.withheld).toEqual(
      new Set(['categories.created-listed', 'ops.pet-lookup', 'ops.orders-listing']),
    );
  });

  it('places each rule after its anchor, and the rules after it follow it', () => {
    const rule = (id: string, after?: string): CatalogueRule => ({
      id,
      title: id,
      source: '§4',
      kind: 'contract',
      tags: [],
      operations: ['op'],
      ...(after ? { after } : {}),
    });
    const base: Rule[] = ['a', 'b', 'c'].map((id) => ({
      id,
      title: id,
      source: '§1',
      kind: 'contract',
      tags: [],
    }));
    const ids = mergeRules(base, [rule('x', 'a'), rule('y'), rule('z', 'nowhere')]).map((r) => r.id);
    expect(ids).toEqual(['a', 'x', 'y', 'b', 'c', 'z']);
    expect(() => mergeRules(base, [rule('a')])).toThrow(/declared twice/);
  });

  it('--help lists the engine rules first, then the pet store rules under their own heading', () => {
    const text = helpText();
    const heading = text.indexOf("The pet store's rules");
    expect(heading).toBeGreaterThan(text.indexOf('Rules of every document'));
    expect(text.indexOf('auth.missing-key')).toBeLessThan(heading);
    expect(text.indexOf('categories.create-201')).toBeGreaterThan(heading);
  });
});
