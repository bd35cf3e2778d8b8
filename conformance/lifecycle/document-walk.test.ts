/**
 * The document walk on the runner's client and the shared response checks: the steps of the one lifecycle
 * walker in order, the key masked as the runner masks it, and what a broken server gets told.
 */
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { inferResources, type ResourceModel } from '../../spec/resources';
import type { FetchLike } from '../types';
import { walkDocument, type WalkResult } from './document-walk';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'crud-30.yaml');
const KEY = 'walk-unit-key-0123456789';
const ORIGIN = 'http://mock.test';

let spec: LoadedSpec;
let model: ResourceModel;

beforeAll(async () => {
  spec = await loadSpecOrThrow(FILE);
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  model = inferred.model;
});

/** The mock, with `change` applied to each answer (a broken server). */
async function walkWith(change?: (req: Request, res: Response) => Promise<Response>): Promise<WalkResult> {
  const mock = await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });
  const fetch: FetchLike = async (req) => {
    const res = await mock(req.clone());
    return change ? change(req, res) : res;
  };
  return walkDocument({ spec, model, baseUrl: `${ORIGIN}${spec.basePath}`, key: KEY, fetch });
}

const labelled = (walk: WalkResult, label: string) => walk.steps.find((s) => s.label === label);

it('walks each resource in the lifecycle order and finds nothing wrong with the mock', async () => {
  const walk = await walkWith();
  expect(walk.problems).toEqual([]);
  expect(walk.steps.map((s) => s.label).slice(0, 5)).toEqual([
    'addPet (create)',
    'findPetById (read back)',
    'findPets (listed)',
    'deletePet (delete)',
    'findPetById (after delete)',
  ]);
  // The id the create answered is carried into every later step.
  const id = JSON.parse(labelled(walk, 'addPet (create)')?.responseText ?? '{}').id;
  expect(labelled(walk, 'deletePet (delete)')?.url).toBe(`${ORIGIN}${spec.basePath}/pets/${id}`);
  expect([...walk.covered].sort()).toEqual(spec.operations.map((o) => o.operationId).sort());
});

it("sends through the runner's client: the key never shows in a step", async () => {
  const walk = await walkWith();
  const encoded = Buffer.from(`${KEY}:`).toString('base64');
  expect(JSON.stringify(walk.steps)).not.toContain(KEY);
  expect(JSON.stringify(walk.steps)).not.toContain(encoded);
});

it('judges every answer with the shared response checks (a body against its schema)', async () => {
  const walk = await walkWith(async (req, res) =>
    req.method === 'GET' && /\/pets\/\d+$/.test(new URL(req.url).pathname) && res.status === 200
      ? new Response(JSON.stringify({ id: 'not a number', name: 7 }), { status: 200, headers: res.headers })
      : res,
  );
  expect(labelled(walk, 'findPetById (read back)')?.problems).toEqual(
    expect.arrayContaining([expect.stringMatching(/^response\.body-schema: findPetById 200: /)]),
  );
});

it('expects a 401 with WWW-Authenticate without credentials, and a 404 after a delete', async () => {
  const walk = await walkWith(async (req, res) => {
    const headers = new Headers(res.headers);
    headers.delete('www-authenticate');
    if (req.method === 'GET' && res.status === 404)
      return new Response(JSON.stringify({ id: 1, name: 'kept' }), { status: 200, headers });
    return new Response(res.body, { status: res.status, headers });
  });
  expect(labelled(walk, 'addPet without credentials')?.problems).toContain('a 401 without WWW-Authenticate');
  expect(labelled(walk, 'findPetById (after delete)')?.problems).toEqual([
    expect.stringMatching(/^status 200, expected 404/),
  ]);
});

it('walks the items of a nested and a composite key (`/metadata/name`, `/repos/{owner}/{repo}`)', async () => {
  const keys = await loadSpecOrThrow(path.join(__dirname, '..', '..', 'fixtures', 'specs', 'keys-31.yaml'));
  const inferred = inferResources(keys);
  if (!inferred.ok) throw new Error(inferred.error);
  const mock = await createFetchHandler({ document: keys, keys: [{ key: KEY, plan: 'pro' }] });
  const walk = await walkDocument({
    spec: keys,
    model: inferred.model,
    baseUrl: `${ORIGIN}${keys.basePath}`,
    key: KEY,
    fetch: (req) => mock(req),
  });
  const step = (label: string) => labelled(walk, label);
  // A cluster-style item keyed by `/metadata/name`, under the namespace the path names.
  const gadget = step('readGadget (read back)');
  expect([gadget?.status, gadget?.problems]).toEqual([200, []]);
  expect(step('readGadget (after delete)')?.status).toBe(404);
  // A repo keyed by `/owner/login` + `/name`: read back and gone by both parts, and its issues under it.
  expect(step('getRepo (read back)')?.url).toMatch(/\/repos\/hubber\/walk-[a-z-]+\d+$/);
  expect([step('getRepo (read back)')?.status, step('getRepo (after delete)')?.status]).toEqual([200, 404]);
  expect(step('createIssue (create)')?.status).toBe(201);
});
