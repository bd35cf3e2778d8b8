/**
 * Issue 30, "What is answered wrongly today", on fixtures/specs/wild/answers/public-30.yaml (cut in the style of public
 * descriptions): generated values valid at every depth, non-JSON answers in their media type, a `3xx`-only
 * operation answered with its `Location`, state as the document says (a wrapped create, an ipv4 id read back),
 * an echoed value coerced to the answer's type. And a property test: a value generated from any schema of the
 * wild documents is valid against that schema's compiled response validator.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { createFetchHandler } from '../mock/adapters/fetch';
import { conformTo, validAnswer } from '../spec/conform';
import { sampleOf } from '../spec/sample';
import { loadSpecOrThrow, type LoadedSpec } from '../spec/load';
import { createSchemaCompiler } from '../spec/schema-compiler';
import type { Schema } from '../spec/schema-shape';

const ROOT = path.join(__dirname, '..');
const FILE = path.join(ROOT, 'fixtures', 'specs', 'wild', 'answers', 'public-30.yaml');
const KEY = 'public-answers-key-0123456789';
const BASE = 'http://mock.test/v2';

let spec: LoadedSpec;
let handler: (req: Request) => Promise<Response>;

beforeAll(async () => {
  spec = await loadSpecOrThrow(FILE);
  handler = await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });
});

const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await handler(
    new Request(`${BASE}${p}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { res, text, json };
};

/** The documented answer's validator of `operationId` for `status`. */
const validatorOf = (operationId: string, status: number) => {
  const v = spec.byId.get(operationId)?.responses.get(String(status))?.validateBody;
  if (!v) throw new Error(`${operationId} ${status} has no schema`);
  return v;
};

describe('generated values meet their schema at every depth', () => {
  it('patterns, formats, lengths, bounds, nested required properties and minProperties', async () => {
    const { res, json } = await call('GET', '/environments/env-1/summary');
    expect(res.status).toBe(200);
    const validate = validatorOf('getEnvironmentSummary', 200);
    expect(validate.errors ?? null).toBeNull();
    expect(validate(json)).toBe(true);
    const body = json as { creationTime: string; applications: Array<{ applicationArn: string }> };
    expect(body.creationTime).not.toBe('string');
    expect(body.applications[0]?.applicationArn).toMatch(/^arn:aws:m2:/);
  });
});

describe('non-JSON answers and redirects', () => {
  it('a PDF answer is a PDF, with its Content-Type', async () => {
    const { res, text } = await call('POST', '/dgmst/certificate', { rollno: '12' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(text.startsWith('%PDF-')).toBe(true);
  });

  it('an RSS answer is an RSS document; a CSV one is the document’s example', async () => {
    const rss = await call('GET', '/news/feed');
    expect(rss.res.headers.get('content-type')).toBe('application/rss+xml');
    expect(rss.text).toMatch(/<rss version="2.0">/);
    const csv = await call('GET', '/reports/latest');
    expect(csv.res.headers.get('content-type')).toBe('text/csv');
    expect(csv.text).toBe('id,name\n1,first\n');
  });

  it('an operation documenting only a 302 answers 302 with a valid Location', async () => {
    const res = await handler(new Request(`${BASE}/booking-redirect`, { redirect: 'manual' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^https?:\/\//);
  });
});

describe('state as the document says', () => {
  it('a create answered under the singular name is stored, listed and read back by its ipv4 address', async () => {
    const created = await call('POST', '/floating_ips', { region: 'nyc3' });
    expect(created.res.status).toBe(202);
    expect(validatorOf('floatingIPs_create', 202)(created.json)).toBe(true);
    const ip = (created.json as { floating_ip: { ip: string } }).floating_ip.ip;
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const read = await call('GET', `/floating_ips/${ip}`);
    expect(read.res.status).toBe(200);
    expect((read.json as { floating_ip: { ip: string } }).floating_ip.ip).toBe(ip);
    const list = await call('GET', '/floating_ips');
    expect(validatorOf('floatingIPs_list', 200)(list.json)).toBe(true);
    expect((list.json as { floating_ips: Array<{ ip: string }> }).floating_ips.map((f) => f.ip)).toContain(
      ip,
    );
  });

  it('a value the request took in another form is answered in the answer’s type (public: "true" -> true)', async () => {
    const created = await call('POST', '/gists', { files: { 'a.txt': { content: 'hi' } }, public: 'true' });
    expect(created.res.status).toBe(201);
    expect((created.json as { public: unknown }).public).toBe(true);
    expect(validatorOf('gists_create', 201)(created.json)).toBe(true);
  });
});

describe('conformTo and validAnswer', () => {
  const schema = {
    type: 'object',
    required: ['on', 'tags', 'owner'],
    properties: {
      on: { type: 'boolean' },
      n: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { type: 'string', minLength: 2 } },
      owner: { type: 'object', required: ['login'], properties: { login: { type: 'string' } } },
    },
    additionalProperties: false,
  } as Schema;

  it('keeps what fits, coerces what the type allows, generates what is missing, drops what is not allowed', () => {
    const out = conformTo({ on: 'false', n: '3', tags: ['ok', null], extra: 1 }, schema) as Record<
      string,
      unknown
    >;
    expect(out.on).toBe(false);
    expect(out.n).toBe(3);
    expect((out.tags as unknown[])[0]).toBe('ok');
    expect(typeof (out.tags as unknown[])[1]).toBe('string');
    // A generated `login` reads as a user name (issue 38), no longer the placeholder `string`.
    expect(out.owner).toEqual({ login: expect.stringMatching(/^[a-z0-9._]+$/) });
    expect(out).not.toHaveProperty('extra');
  });

  it('validAnswer passes a valid value through untouched', () => {
    const validate = createSchemaCompiler({}).compile(schema, 'response', 'test');
    const value = { on: true, tags: [], owner: { login: 'me' } };
    expect(validAnswer(value, schema, validate)).toBe(value);
  });
});

/** Every schema object reachable from the wild documents' answers (a cycle visited once). */
function answerSchemas(s: LoadedSpec): Array<{ where: string; schema: Schema; validate: ValidateFunction }> {
  const out: Array<{ where: string; schema: Schema; validate: ValidateFunction }> = [];
  for (const op of s.operations)
    for (const [status, r] of op.responses)
      if (r.schema && r.validateBody)
        out.push({ where: `${op.operationId} ${status}`, schema: r.schema, validate: r.validateBody });
  return out;
}

describe('property: a generated answer is valid against the compiled response validator', () => {
  const WILD = path.join(ROOT, 'fixtures', 'specs', 'wild');
  const files = [
    ...fs
      .readdirSync(WILD)
      .filter((f) => /\.(ya?ml)$/.test(f))
      .map((f) => path.join(WILD, f)),
    path.join(ROOT, 'spec', 'openapi.yaml'),
  ];
  let schemas: Array<{ where: string; schema: Schema; validate: ValidateFunction }> = [];

  beforeAll(async () => {
    for (const f of files) schemas.push(...answerSchemas(await loadSpecOrThrow(f)));
    schemas = schemas.filter((s) => s.schema !== undefined);
  });

  it('for every answer schema of every wild document, with and without examples, required-only or full', () => {
    expect(schemas.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.boolean(), fc.boolean(), (i, requiredOnly, skipExamples) => {
        const { where, schema, validate } = schemas[i % schemas.length] as (typeof schemas)[number];
        const value = validAnswer(sampleOf(schema, { requiredOnly, skipExamples }), schema, validate);
        if (!validate(value)) throw new Error(`${where}: ${JSON.stringify(value).slice(0, 300)}`);
      }),
      { numRuns: 400, seed: 30 },
    );
  });

  it('the generator alone (before any repair) meets every answer schema of the wild documents', () => {
    const failing = schemas
      .filter(
        ({ schema, validate }) =>
          !validate(sampleOf(schema)) || !validate(sampleOf(schema, { skipExamples: true })),
      )
      .map((s) => s.where);
    expect(failing).toEqual([]);
  });
});

describe('a create answered under a wrapper written as allOf (AWS AppFabric, the sweep of SEED=30)', () => {
  const WRAPPED = path.join(ROOT, 'fixtures', 'specs', 'wild', 'answers', 'wrapped-allof.yaml');
  let wrapped: LoadedSpec;
  let send: (req: Request) => Promise<Response>;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

  beforeAll(async () => {
    wrapped = await loadSpecOrThrow(WRAPPED);
    send = await createFetchHandler({ document: wrapped, keys: [{ key: KEY, plan: 'pro' }] });
  });

  it('keeps the wrapper out of the id, draws ids the pattern allows, and reads the item back by its arn', async () => {
    // `/appbundles` answers `{"appBundle": {allOf: [AppBundle]}}`; the request sends `tags` as a list where the
    // answer's item says a map. The id is the item's `arn` (`pattern: arn:.+`, unanchored), never the wrapper.
    const created = await send(
      new Request(`${BASE}/appbundles`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tags: [{ key: 'team', value: 'a' }] }),
      }),
    );
    expect(created.status).toBe(201);
    const body = (await created.json()) as { appBundle: { arn: string; tags?: unknown } };
    const validate = wrapped.byId.get('CreateAppBundle')?.responses.get('201')?.validateBody;
    expect(validate?.(body)).toBe(true);
    expect(body.appBundle.arn).toMatch(/^arn:/);
    const read = await send(
      new Request(`${BASE}/appbundles/${encodeURIComponent(body.appBundle.arn)}`, { headers }),
    );
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(body);
    const list = (await (await send(new Request(`${BASE}/appbundles`, { headers }))).json()) as {
      appBundleSummaryList: unknown[];
    };
    expect(list.appBundleSummaryList).toEqual([body.appBundle]);
  });
});
