/**
 * Issue 17, "Real documents": one generic walk over every operation of every document in fixtures/specs/wild/
 * (and the pet store's own), against the mock in-process (the fetch adapter), with no per-document code. With a
 * valid key placed as each operation's security requires and requests generated from the schemas, every answer
 * is a documented 2xx whose body is valid against the documented schema and content type; creates are read
 * back, listed, changed and deleted where the document has those operations; without credentials every secured
 * operation answers 401 with WWW-Authenticate. Then the conformance runner passes against the same mock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFetchHandler } from '../mock/adapters/fetch';
import { sampleOf } from '../spec/sample';
import { runConformance } from '../conformance';
import { walkDocument, type WalkResult } from '../conformance/lifecycle/document-walk';
import { loadSpecOrThrow, type LoadedSpec } from '../spec/load';
import { inferResources, type ResourceModel } from '../spec/resources';

const ROOT = path.join(__dirname, '..');
const WILD = path.join(ROOT, 'fixtures', 'specs', 'wild');
const DOCUMENTS = [
  ...fs
    .readdirSync(WILD)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .map((f) => path.join(WILD, f)),
  path.join(ROOT, 'spec', 'openapi.yaml'),
];
const KEY = 'wild-walk-key-0123456789';
const ORIGIN = 'http://mock.test';

const handlerFor = (spec: LoadedSpec) =>
  createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });

describe.each(DOCUMENTS.map((file) => [path.relative(ROOT, file), file]))('%s', (_name, file) => {
  let spec: LoadedSpec;
  let model: ResourceModel;
  let walk: WalkResult;

  beforeAll(async () => {
    spec = await loadSpecOrThrow(file);
    const inferred = inferResources(spec);
    if (!inferred.ok) throw new Error(inferred.error);
    model = inferred.model;
    walk = await walkDocument({
      spec,
      model,
      baseUrl: `${ORIGIN}${spec.basePath}`,
      key: KEY,
      fetch: await handlerFor(spec),
    });
  });

  it('answers every operation, with a valid key, a documented 2xx whose body fits the documented schema', () => {
    expect(walk.problems).toEqual([]);
    expect(spec.operations.map((o) => o.operationId).filter((id) => !walk.covered.has(id))).toEqual([]);
  });

  it('binds every conventional operation on a resource path (envelopes through allOf included)', () => {
    const conventional: Record<string, string[]> = {
      collection: ['get', 'post'],
      item: ['get', 'put', 'patch', 'delete'],
    };
    for (const r of model.resources) {
      const bound = new Set(Object.values(r.operations));
      for (const op of spec.operations) {
        const where =
          op.path === r.collectionPath ? 'collection' : op.path === r.itemPath ? 'item' : undefined;
        if (where && conventional[where]?.includes(op.method))
          expect([op.operationId, bound.has(op.operationId)]).toEqual([op.operationId, true]);
      }
    }
  });

  it('reads back, lists, changes and deletes what it creates, where the document has those operations', () => {
    const labels = walk.steps.map((s) => s.label);
    for (const r of model.resources) {
      const { create, read, list, replace, patch, update, remove } = r.operations;
      if (!create) continue;
      expect(labels).toContain(`${create} (create)`);
      if (!r.idField) continue;
      if (read) expect(labels).toContain(`${read} (read back)`);
      if (list) expect(labels).toContain(`${list} (listed)`);
      if (replace) expect(labels).toContain(`${replace} (replace)`);
      if (patch) expect(labels).toContain(`${patch} (patch)`);
      if (update) expect(labels).toContain(`${update} (update)`);
      if (remove) expect(labels).toContain(`${remove} (delete)`);
      if (remove && read) expect(labels).toContain(`${read} (after delete)`);
    }
  });

  it('refuses every secured operation without credentials: 401 with WWW-Authenticate', () => {
    const secured = spec.operations.filter((o) => o.requiresAuth);
    const refusals = walk.steps.filter((s) => s.label.endsWith(' without credentials'));
    expect(refusals.map((s) => s.operationId).sort()).toEqual(secured.map((o) => o.operationId).sort());
    for (const s of refusals) {
      expect([s.operationId, s.status]).toEqual([s.operationId, 401]);
      expect(s.responseHeaders['www-authenticate']).toMatch(/\S/);
      // The error is filled in (the reason, the status), not the schema's placeholder sample.
      const documented = spec.byId.get(s.operationId)?.responses;
      const schema = (documented?.get('401') ?? documented?.get('default'))?.schema;
      if (schema) expect(s.responseText).not.toBe(JSON.stringify(sampleOf(schema)));
      expect(s.responseText).toMatch(/missing/);
    }
  });

  it('passes the conformance runner: no rule fails, every skip says why', async () => {
    const report = await runConformance({
      target: `${ORIGIN}${spec.basePath}`,
      key: KEY,
      specFile: file,
      seed: 5,
      maxWaitMs: 2000,
      fetch: await handlerFor(spec),
    });
    const failing = report.rules
      .filter((r) => r.status === 'fail')
      .map((r) => `${r.id}: ${r.evidence[0]?.problem ?? ''}`);
    expect(failing).toEqual([]);
    for (const r of report.rules.filter((x) => x.status === 'skip'))
      expect([r.id, r.evidence[0]?.problem]).toEqual([r.id, expect.stringMatching(/\S/)]);
    // Only what the document gives no way to delete is left behind.
    for (const left of report.cleanup?.leftovers ?? [])
      expect(left.reason).toBe(`the document has no delete for ${left.resource}`);
  });
});
