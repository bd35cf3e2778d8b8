import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpec, loadSpecOrThrow, validateHeaderValue, type LoadedSpec } from './load';

const fixture = (name: string) => path.join(__dirname, '..', 'fixtures', 'specs', name);
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow();
});

describe('the contract document', () => {
  it('validates and states version 1.0.0 with servers ending in /v1', () => {
    expect(spec.document.info.version).toBe('1.0.0');
    const urls = (spec.document.servers ?? []).map((s) => s.url);
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(url).toMatch(/\/v1$/);
    expect(urls).toContain('http://127.0.0.1:4010/v1');
    expect(spec.basePath).toBe('/v1');
  });

  it.each([
    ['listCategories', 'get', '/categories', ['200', '401', '429']],
    ['createCategory', 'post', '/categories', ['201', '400', '401', '429']],
    ['getPetById', 'get', '/pets/{petId}', ['200', '401', '429']],
    ['listOrders', 'get', '/store/orders', ['200', '401', '429']],
  ])('%s is %s %s with statuses %j, every one with the rate-limit headers', (id, method, p, statuses) => {
    const op = spec.byId.get(id);
    expect(op).toBeDefined();
    expect(op?.method).toBe(method);
    expect(op?.path).toBe(p);
    expect(op?.requiresAuth).toBe(true);
    expect([...(op?.responses.keys() ?? [])].sort()).toEqual([...statuses].sort());
    for (const res of op?.responses.values() ?? []) {
      const names = res.headers.map((h) => h.name);
      for (const h of RATE_HEADERS) expect(names).toContain(h);
      if (res.status === '429') expect(names).toContain('Retry-After');
    }
  });

  it('marks only the pet lookup deprecated and leaves the sunset date to configuration', () => {
    expect(spec.operations.filter((o) => o.deprecated).map((o) => o.operationId)).toEqual(['getPetById']);
    expect(spec.byId.get('getPetById')?.sunset).toBeUndefined();
  });

  it('uses global HTTP bearer security', () => {
    expect(spec.document.security).toEqual([{ bearerAuth: [] }]);
    expect(spec.document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('error responses carry the Error schema', () => {
    for (const op of spec.operations) {
      for (const status of ['400', '401', '429']) {
        const res = op.responses.get(status);
        if (!res) continue;
        expect(res.validateBody?.({ code: 'x', message: 'y', status: Number(status) })).toBe(true);
        expect(res.validateBody?.({ code: 'x', message: 'y' })).toBe(false);
      }
    }
  });

  it('invents no constraint the interface does not state', () => {
    const text = JSON.stringify(spec.document.components?.schemas);
    for (const word of [
      'maxLength',
      'minLength',
      'enum',
      'pattern',
      'maximum',
      'minimum',
      'additionalProperties',
    ]) {
      expect(text).not.toContain(`"${word}"`);
    }
  });
});

describe('compiled validators', () => {
  it('accepts a Category from the interface and refuses one whose id is a string', () => {
    const category = spec.schemas.get('Category');
    expect(category?.({ id: 1, name: 'dog', description: 'Dogs of every breed' })).toBe(true);
    expect(category?.({ id: '1', name: 'dog' })).toBe(false);
    expect(category?.({ id: 1.5, name: 'dog' })).toBe(false);
    expect(category?.({ name: 'dog' })).toBe(false);
  });

  it('requires name in NewCategory and types it as a string', () => {
    const validate = spec.byId.get('createCategory')?.requestBody?.validate;
    expect(validate?.({ name: 'rabbit' })).toBe(true);
    expect(validate?.({ description: 'no name' })).toBe(false);
    expect(validate?.({ name: 7 })).toBe(false);
  });

  it('checks integer headers from their string form', () => {
    const limit = spec.byId
      .get('listCategories')
      ?.responses.get('200')
      ?.headers.find((h) => h.name === 'X-RateLimit-Limit');
    if (!limit) throw new Error('header missing');
    expect(validateHeaderValue(limit, '60').valid).toBe(true);
    expect(validateHeaderValue(limit, 'sixty').valid).toBe(false);
    expect(validateHeaderValue(limit, '1.5').valid).toBe(false);
  });
});

describe('a broken document is refused with the bad spot named', () => {
  it.each([
    ['bad-ref.yaml', /NoSuchSchema.*referenced at #\/paths\/~1categories\/post\/requestBody/s],
    ['wrong-type.yaml', /#\/paths\/~1categories\/post\/deprecated must be boolean/],
    ['bad-schema.yaml', /#\/components\/schemas\/NewCategory: .*minLength/],
    ['not-yaml.yaml', /Error parsing .*not-yaml\.yaml.*\(3:1\)/s],
    ['missing.yaml', /^file not found: .*missing\.yaml$/],
  ])(
    '%s, every time it is loaded (a broken document is never remembered as valid)',
    async (name, message) => {
      for (let i = 0; i < 2; i++) {
        const result = await loadSpec(fixture(name));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error).toMatch(message);
      }
    },
  );
});

it('a missing file is "file not found" with the path as given, relative to the working directory', async () => {
  for (const given of ['nope/openapi.yaml', path.resolve('nope/openapi.yaml')]) {
    const result = await loadSpec(given);
    expect(result).toEqual({ ok: false, error: 'file not found: nope/openapi.yaml' });
  }
  const outside = path.join(os.tmpdir(), 'no-such-dir', 'openapi.yaml');
  expect(await loadSpec(outside)).toEqual({ ok: false, error: `file not found: ${outside}` });
});

describe('the validation cache', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-cache-'));
  const copy = path.join(tmp, 'openapi.yaml');
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('remembers a valid document and revalidates as soon as a byte changes', async () => {
    const text = fs
      .readFileSync(path.join(__dirname, 'openapi.yaml'), 'utf8')
      .replace('version: 1.0.0', `version: 1.0.0-${Date.now()}`);
    fs.writeFileSync(copy, text);
    const first = await loadSpecOrThrow(copy);
    expect(first.fromCache).toBe(false);
    const second = await loadSpecOrThrow(copy);
    expect(second.fromCache).toBe(true);
    expect(second.document).toEqual(first.document);
    expect([...second.byId.keys()]).toEqual([...first.byId.keys()]);
    // A broken edit of a remembered document is validated again, and refused.
    fs.writeFileSync(copy, text.replace('deprecated: true', 'deprecated: maybe'));
    const broken = await loadSpec(copy);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/deprecated must be boolean/);
  });

  it('is off with SPEC_VALIDATION_CACHE=off', async () => {
    fs.writeFileSync(copy, fs.readFileSync(path.join(__dirname, 'openapi.yaml'), 'utf8'));
    await loadSpecOrThrow(copy);
    process.env.SPEC_VALIDATION_CACHE = 'off';
    try {
      expect((await loadSpecOrThrow(copy)).fromCache).toBe(false);
    } finally {
      delete process.env.SPEC_VALIDATION_CACHE;
    }
  });
});
