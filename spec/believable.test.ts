import { createAjv } from './ajv';
import { sampleOf } from './sample';
import { kindOfName, wordsOf } from './field-kind';
import { serverValue } from './believable';
import type { Schema } from './schema-shape';

const ajv = createAjv();
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const DAY = 86_400_000;
const at = (schema: object, name?: string, extra: object = {}) =>
  sampleOf(schema as Schema, { name, nowMs: NOW, ...extra });

describe('every format ajv-formats knows is generated valid', () => {
  const strings = [
    'date',
    'time',
    'date-time',
    'duration',
    'uri',
    'uri-reference',
    'uri-template',
    'url',
    'email',
  ];
  const more = ['hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'relative-json-pointer', 'byte'];
  it.each([...strings, ...more, 'password', 'binary'])('string format %s', (format) => {
    for (const name of [undefined, 'id', 'email', 'created_at', 'avatar_url', 'version']) {
      const schema = { type: 'string', format };
      const value = at(schema, name);
      expect({ name, value, valid: ajv.validate(schema, value) }).toEqual({ name, value, valid: true });
    }
  });
  it.each([
    ['int32', 'integer'],
    ['int64', 'integer'],
    ['float', 'number'],
    ['double', 'number'],
  ])('number format %s', (format, type) => {
    for (const name of [undefined, 'id', 'created']) {
      const schema = { type, format };
      expect(ajv.validate(schema, at(schema, name))).toBe(true);
    }
  });
  it('format byte, upgraded to contentEncoding base64, is base64 within the lengths', () => {
    for (const [min, max] of [
      [0, 100],
      [5, 9],
      [0, 3],
      [12, 12],
    ]) {
      const value = at({ type: 'string', contentEncoding: 'base64', minLength: min, maxLength: max }, 'data');
      expect(ajv.validate({ type: 'string', format: 'byte', minLength: min, maxLength: max }, value)).toBe(
        true,
      );
    }
  });
});

describe('values read from the field name', () => {
  const object = {
    type: 'object',
    properties: {
      email: { type: 'string' },
      avatar_url: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      createdAt: { type: 'string' },
      updated: { type: 'integer' },
      expires_at: { type: 'string', format: 'date' },
      version: { type: 'string' },
      customer_id: { type: 'string' },
      first_name: { type: 'string' },
      phone_number: { type: 'string' },
      country_code: { type: 'string' },
      currency: { type: 'string' },
      ip_address: { type: 'string' },
      hostname: { type: 'string' },
      login: { type: 'string' },
      fingerprint: { type: 'string' },
      head_sha: { type: 'string' },
    },
  };

  it('an email, a URL, times near now, a version, an id, names, codes and addresses', () => {
    const v = at(object) as Record<string, string | number>;
    expect(v.email).toMatch(/^[\w.]+@example\.(com|net|org)$/);
    expect(v.avatar_url).toMatch(/^https:\/\/example\.com\/avatar\/\w+$/);
    for (const t of [v.created_at, v.createdAt]) {
      const ms = Date.parse(String(t));
      expect(ms).toBeLessThan(NOW);
      expect(ms).toBeGreaterThan(NOW - 32 * DAY);
    }
    expect(typeof v.updated).toBe('number');
    expect(Math.abs(Number(v.updated) * 1000 - NOW)).toBeLessThan(2 * DAY);
    expect(Date.parse(String(v.expires_at))).toBeGreaterThan(NOW);
    expect(v.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(v.customer_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(v.first_name).toMatch(/^[A-Z][a-z]+$/);
    expect(v.phone_number).toMatch(/^\+\d{10,13}$/);
    expect(v.country_code).toMatch(/^[A-Z]{2}$/);
    expect(v.currency).toMatch(/^[A-Z]{3}$/);
    expect(v.ip_address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(v.hostname).toMatch(/\.example\.com$/);
    expect(v.login).not.toBe('string');
    expect(v.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(v.head_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('the lines of a postal address and a company, not the word "string" (issue 38)', () => {
    const names = ['line1', 'line2', 'address_line1', 'city', 'postal_code', 'zip', 'company', 'line'];
    const address = {
      type: 'object',
      required: names,
      properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
    };
    const v = at(address) as Record<string, string>;
    expect(v.line1).toMatch(/^\d+ [A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(v.address_line1).toMatch(/^\d+ [A-Z]/);
    expect(v.city).toMatch(/^[A-Z][a-z]+$/);
    expect(v.postal_code).toMatch(/^\d{5}$/);
    expect(v.zip).toMatch(/^\d{5}$/);
    expect(v.company).toMatch(/^[A-Z][a-z]+ /);
    // A bare `line` (of a file, of a log) is not an address.
    expect(kindOfName('line')).toBeUndefined();
  });

  it('is reproducible: the same seed and day give the same values, another seed others', () => {
    expect(at(object)).toEqual(at(object));
    expect(at(object, undefined, { seed: 7 })).toEqual(at(object, undefined, { seed: 7 }));
    expect(at(object, undefined, { seed: 7 })).not.toEqual(at(object));
  });

  it('still honours the schema: an example first, then enum, pattern and lengths', () => {
    expect(at({ type: 'string', example: 'me@corp.test' }, 'email')).toBe('me@corp.test');
    expect(at({ type: 'string', enum: ['a', 'b'] }, 'email')).toBe('a');
    expect(at({ type: 'string', pattern: '^v[0-9]$' }, 'version')).toMatch(/^v[0-9]$/);
    expect(String(at({ type: 'string', maxLength: 8 }, 'id')).length).toBeLessThanOrEqual(8);
    expect(at({ type: 'integer', maximum: 10 }, 'created')).toBeLessThanOrEqual(10);
  });

  it('reads names in any case style', () => {
    expect(wordsOf('IPAddress')).toEqual(['ip', 'address']);
    expect(['created_at', 'createdAt', 'CREATED_AT', 'Created-At'].map(kindOfName)).toEqual([
      'time',
      'time',
      'time',
      'time',
    ]);
    expect(kindOfName('add_on')).toBeUndefined();
  });
});

describe('values the server sets as a record is stored', () => {
  it('a time field is now in its form; another field a believable value', () => {
    expect(serverValue({ type: 'integer' }, 'created', NOW)).toBe(NOW / 1000);
    expect(serverValue({ type: 'string', format: 'date-time' }, 'created_at', NOW)).toBe(
      new Date(NOW).toISOString(),
    );
    expect(serverValue({ type: 'string', format: 'date' }, 'valid_from', NOW)).toBe('2026-11-27');
    expect(serverValue({ type: 'string' }, 'owner_email', NOW)).toMatch(/@example\.(com|net|org)$/);
    expect(serverValue({ type: 'integer', maximum: 10 }, 'created', NOW)).toBeUndefined();
  });

  it("leaves a server's string to the document's example, but not an id or a time", () => {
    const fullName = { type: 'string', example: 'octocat/Hello-World' } as const;
    expect(serverValue(fullName, 'full_name', NOW)).toBeUndefined();
    expect(serverValue({ type: 'string' }, 'full_name', NOW)).toEqual(expect.any(String));
    const id = serverValue({ type: 'string', example: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5' }, 'node_id', NOW);
    expect(id).toEqual(expect.any(String));
    expect(id).not.toBe('MDEwOlJlcG9zaXRvcnkxMjk2MjY5');
    expect(
      serverValue(
        { type: 'string', format: 'date-time', example: '2011-01-26T19:01:12Z' },
        'created_at',
        NOW,
      ),
    ).toBe(new Date(NOW).toISOString());
  });
});
