/** Every document in fixtures/specs/wild/ loads, as the tools load it, and says only what it should. */
import fs from 'node:fs';
import path from 'node:path';
import { basePathOf } from './base-path';
import { loadSpec } from './load';
import type { OpenAPIV3_1 } from 'openapi-types';
import { operationsOf } from './methods';

const WILD = path.join(__dirname, '..', 'fixtures', 'specs', 'wild');
const documents = fs.readdirSync(WILD).filter((f) => /\.(ya?ml|json)$/.test(f));

const load = async (name: string) => {
  const result = await loadSpec(path.join(WILD, name));
  if (!result.ok) throw new Error(result.error);
  return result;
};

beforeAll(() => {
  process.env.SPEC_VALIDATION_CACHE = 'off'; // validate every time: the documents must stay valid as written
});
afterAll(() => {
  delete process.env.SPEC_VALIDATION_CACHE;
});

it('holds at least five documents, in OpenAPI 3.0, 3.1 and 3.2 (and Swagger 2.0)', () => {
  expect(documents.length).toBeGreaterThanOrEqual(5);
  const versions = documents.map(
    (f) => fs.readFileSync(path.join(WILD, f), 'utf8').match(/^(?:openapi|swagger): '?(\d\.\d)/m)?.[1],
  );
  expect(new Set(versions)).toEqual(new Set(['3.0', '3.1', '3.2', '2.0']));
});

describe.each(documents)('%s', (name) => {
  it('loads as OpenAPI 3.1 (3.2 as written), warning about custom formats (and a 2.0 conversion) only', async () => {
    const { spec, warnings } = await load(name);
    const written = /^openapi: '?3\.2/m.test(fs.readFileSync(path.join(WILD, name), 'utf8'));
    expect(spec.document.openapi).toMatch(written ? /^3\.2\.\d+$/ : /^3\.1\.\d+$/);
    for (const warning of warnings)
      expect(warning).toMatch(/^(unknown format "|Swagger 2\.0 document converted to OpenAPI 3\.1)/);
  });

  it('gives every operation an operationId and a JSON schema for every response with a body', async () => {
    const { spec } = await load(name);
    expect(spec.operations.length).toBeGreaterThan(0);
    for (const [template, item] of Object.entries(spec.document.paths ?? {})) {
      for (const { method, operation: op } of operationsOf(item)) {
        expect([template, method, op.operationId]).toEqual([template, method, expect.any(String)]);
        for (const [status, res] of Object.entries(op.responses ?? {})) {
          const content = (res as OpenAPIV3_1.ResponseObject).content;
          if (!content) continue;
          const json = Object.entries(content).find(([type]) => /[/+]json$/.test(type));
          expect([op.operationId, status, json?.[1].schema]).toEqual([
            op.operationId,
            status,
            expect.any(Object),
          ]);
        }
      }
    }
  });
});

describe('what the documents bring', () => {
  it.each([
    ['crud-30.yaml', '/api'],
    ['shop-31.yaml', '/admin/api/2024-01'],
    ['events-31.yaml', '/v1'],
    ['booking-30.yaml', '/api/v1'],
    ['petstore-31.yaml', '/api/v3'],
  ])('%s has the base path %s', async (name, basePath) => {
    expect(basePathOf((await load(name)).spec.document)).toBe(basePath);
  });

  it('shop-31: the custom format is the one warning, and the format is not checked', async () => {
    const { spec, warnings } = await load('shop-31.yaml');
    expect(warnings).toEqual([
      expect.stringMatching(/^unknown format "iso-country-code" \(at #\/components\/schemas\/Address/),
    ]);
    const address = spec.schemas.get('Address');
    expect(address?.({ line1: 'a', city: 'b', country: 'anything' })).toBe(true);
  });

  it('crud-30: nullable and x- keywords inside schemas survive the upgrade, Pet is allOf[NewPet, {id}]', async () => {
    const { spec, warnings } = await load('crud-30.yaml');
    expect(warnings).toEqual([]);
    expect(spec.document.components?.schemas?.NewPet).toMatchObject({
      'x-shelter-model': true,
      properties: { tag: { type: ['string', 'null'], 'x-searchable': true } },
    });
    const pet = spec.schemas.get('Pet');
    expect(pet?.({ id: 1, name: 'Rex', tag: null })).toBe(true);
    expect(pet?.({ name: 'Rex' })).toBe(false);
  });

  it('booking-30: schemas and examples in files beside it resolve, and are upgraded from 3.0 too', async () => {
    const { spec, files } = await load('booking-30.yaml');
    expect(files.map((f) => path.relative(WILD, f)).sort()).toEqual([
      'booking-30.yaml',
      'examples/booking.yaml',
      'schemas/booking.yaml',
      'schemas/payment.yaml',
      'schemas/problem.yaml',
      'schemas/trip.yaml',
    ]);
    const booking = spec.schemas.get('Booking');
    expect(
      booking?.({ trip_id: 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e', passenger_name: 'A', notes: null }),
    ).toBe(true);
    expect(booking?.({ passenger_name: 'A' })).toBe(false);
    const pay = spec.byId.get('createBookingPayment')?.requestBody?.validate;
    expect(pay?.({ amount: 0, currency: 'eur', source: {} })).toBe(false); // exclusiveMinimum, upgraded
    const created = spec.document.paths?.['/bookings']?.post?.responses?.[
      '201'
    ] as OpenAPIV3_1.ResponseObject;
    expect(created.content?.['application/json']?.examples?.bicycle).toMatchObject({
      value: { passenger_name: 'Ada Lovelace' },
    });
  });
});
