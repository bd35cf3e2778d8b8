/**
 * `--settings FILE` (JSON or YAML) gives any document its body bounds, unknown-field choice and sunset; the pet
 * store's settings ship as the default, and its old flags tune them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFetchHandler } from '../adapters/fetch';
import { loadSpecOrThrow } from '../../spec/load';
import { DEFAULTS, HELP, parseConfig } from './config';
import { createMockServer } from './index';

const CRUD = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'crud-30.yaml');
const KEY = 'settings-test-key-0123456789';
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-settings-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const configOf = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const r = parseConfig(argv, env);
  if (r.ok !== true) throw new Error(JSON.stringify(r));
  return r.config;
};

describe('--settings', () => {
  it('ships the pet store settings as the default', () => {
    expect(configOf([]).policy).toEqual(DEFAULTS.policy);
    expect(DEFAULTS.policy.rules.NewCategory?.name).toEqual({ minLength: 1, maxLength: 200 });
  });

  it('reads YAML for any document: bounds by schema and property, unknown fields, sunset', () => {
    const file = write(
      'shelter.yaml',
      'allowUnknownFields: true\nbodyBounds:\n  NewPet:\n    name: { maxLength: 5 }\nsunset: 2031-01-01\n',
    );
    const config = configOf(['--settings', file]);
    expect(config.policy).toEqual({
      allowUnknownFields: true,
      rules: { NewPet: { name: { maxLength: 5 } } },
    });
    expect(config.sunset).toBe('2031-01-01');
    expect(configOf([], { MOCK_SETTINGS_FILE: file }).policy.rules).toEqual({
      NewPet: { name: { maxLength: 5 } },
    });
  });

  it('gives the plans keys may name; without any, the shipped plans stay', () => {
    const file = write('plans.yaml', 'plans:\n  gold: { perMinute: 5, perDay: 50 }\n');
    expect(configOf(['--settings', file]).plans).toEqual({ gold: { perMinute: 5, perDay: 50 } });
    expect(configOf(['--settings', 'none']).plans).toEqual(DEFAULTS.plans);
    expect(DEFAULTS.plans.pro).toEqual({ perMinute: 300, perDay: 10_000 });
  });

  it('reads JSON, and none means no bounds', () => {
    const file = write(
      's.json',
      JSON.stringify({ bodyBounds: { Thing: { code: { pattern: '^[A-Z]+$' } } } }),
    );
    expect(configOf(['--settings', file]).policy.rules).toEqual({ Thing: { code: { pattern: '^[A-Z]+$' } } });
    expect(configOf(['--settings', 'none']).policy).toEqual({ allowUnknownFields: false, rules: {} });
  });

  it.each([
    ['missing.yaml', null, /--settings .*missing\.yaml: ENOENT/],
    ['typo.yaml', 'bodyBound: {}\n', /--settings .*typo\.yaml: \/bodyBound is not allowed/],
    ['bad-bound.yaml', 'bodyBounds: { A: { b: { maxLength: -1 } } }\n', /maxLength must be >= 0/],
    ['bad-date.yaml', 'sunset: someday\n', /sunset must be a date, got "someday"/],
  ])('refuses %s with an error naming the file and the field', (name, text, message) => {
    const file = text === null ? path.join(dir, name) : write(name, text);
    const r = parseConfig(['--settings', file], {});
    expect(r.ok).toBe(false);
    if (r.ok === false) expect(r.error).toMatch(message);
  });

  it('the old flags tune the name and description bounds of whichever settings file is used', () => {
    const file = write(
      'named.yaml',
      'bodyBounds:\n  NewPet:\n    name: { minLength: 2, maxLength: 9 }\n    tag: { maxLength: 3 }\n',
    );
    const config = configOf(['--settings', file, '--allow-empty-name', '--max-name-length', '40']);
    expect(config.policy.rules).toEqual({ NewPet: { name: { maxLength: 40 }, tag: { maxLength: 3 } } });
  });

  it('bounds a request of another document: 400 past the bound, 2xx within', async () => {
    const file = write(
      'shelter-bounds.json',
      JSON.stringify({ bodyBounds: { NewPet: { name: { maxLength: 5 } } } }),
    );
    const spec = await loadSpecOrThrow(CRUD);
    const handler = await createFetchHandler({
      document: spec,
      keys: [{ key: KEY, plan: 'pro' }],
      config: configOf(['--settings', file]),
    });
    const post = (name: string) =>
      handler(
        new Request(`http://mock.test${spec.basePath}/pets`, {
          method: 'POST',
          headers: { Authorization: `Basic ${btoa(`${KEY}:`)}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name }),
        }),
      );
    const long = await post('Rexxxx');
    expect(long.status).toBe(400);
    expect(await long.text()).toMatch(/name/);
    expect((await post('Rex')).status).toBeLessThan(300);
  });
});

describe('--settings with --watch', () => {
  it('a reload reads the settings file again and keeps the command line over it; a broken edit is refused', async () => {
    const file = write('reloaded.yaml', 'bodyBounds:\n  NewPet:\n    name: { maxLength: 3 }\n');
    const config = configOf(['--settings', file, '--max-description-length', '7', '--no-seed']);
    const mock = await createMockServer({
      ...config,
      specPath: CRUD,
      keys: [{ key: KEY, plan: 'pro' }],
      quiet: true,
    });
    try {
      const base = await mock.listen();
      const post = (name: string) =>
        fetch(`${base}/pets`, {
          method: 'POST',
          headers: { Authorization: `Basic ${btoa(`${KEY}:`)}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name }),
        }).then((r) => r.status);
      expect(await post('Rexy')).toBe(400);
      fs.writeFileSync(file, 'bodyBounds:\n  NewPet:\n    name: { maxLength: 9 }\n    description: {}\n');
      expect((await mock.reload()).ok).toBe(true);
      expect(await post('Rexy')).toBeLessThan(300);
      expect(mock.deps.config.policy.rules.NewPet).toEqual({
        name: { maxLength: 9 },
        description: { maxLength: 7 },
      });
      fs.writeFileSync(file, 'bodyBounds: [\n');
      const refused = await mock.reload();
      expect(refused.ok === false && refused.error).toMatch(/--settings .*reloaded\.yaml/);
      expect(await post('Rexy')).toBeLessThan(300);
    } finally {
      await mock.close();
    }
  });
});

describe('--help', () => {
  it('describes the engine first, then the pet store settings under their own heading', () => {
    const heading = HELP.indexOf("The pet store's settings");
    expect(HELP).toMatch(/^Usage: petstore-mock/);
    expect(heading).toBeGreaterThan(HELP.indexOf('--help, -h'));
    for (const flag of ['--spec', '--settings', '--allow-unknown-fields', '--sunset', '--max-body-bytes'])
      expect(HELP.indexOf(flag)).toBeLessThan(heading);
    for (const flag of ['--allow-empty-name', '--max-name-length', '--max-description-length'])
      expect(HELP.indexOf(flag)).toBeGreaterThan(heading);
    expect(HELP.slice(0, heading)).not.toMatch(/pet store|categor/i);
  });
});

describe('latency and faults in a settings file (issue 33)', () => {
  it('reads latency, faults and operations; the command line wins over the file', () => {
    const file = write(
      'chaos.yaml',
      'latency: "50-80"\nfaults: 0.1\noperations:\n  ping: { latency: "5", faults: 1 }\n',
    );
    expect(configOf(['--settings', file])).toMatchObject({
      latency: '50-80',
      faults: 0.1,
      operationChaos: { ping: { latency: '5', faults: 1 } },
    });
    expect(configOf(['--settings', file, '--latency', '7', '--faults', '0'])).toMatchObject({
      latency: '7',
      faults: 0,
    });
  });

  it('refuses a bad latency or rate naming the field', () => {
    const bad = (text: string) => parseConfig(['--settings', write('bad-chaos.yaml', text)], {});
    expect(bad('faults: 2\n')).toMatchObject({ ok: false, error: expect.stringMatching(/faults/) });
    expect(bad('operations:\n  ping: { latency: "9-1" }\n')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/operations\.ping\.latency/),
    });
  });
});

describe('webhooks and callback credentials in a settings file (issue 33)', () => {
  it('reads the target, the secret, the format, each webhook and the credentials; --webhooks wins', () => {
    const file = write(
      'hooks.yaml',
      [
        'webhookUrl: http://127.0.0.1:9000/hooks',
        'webhookSecret: whsec_file',
        'webhookSignature: stripe',
        'webhooks:',
        '  podcastDeleted: { resource: podcasts, event: deleted }',
        '  ping: { enabled: false, url: "http://127.0.0.1:9001/p", signature: hex }',
        'callbackCredentials:',
        '  hookBearer: tok-123456',
        '  hookBasic: { username: u, password: p }',
        '',
      ].join('\n'),
    );
    expect(configOf(['--settings', file])).toMatchObject({
      webhookUrl: 'http://127.0.0.1:9000/hooks',
      webhookSecret: 'whsec_file',
      webhookSignature: 'stripe',
      webhooks: { podcastDeleted: { resource: 'podcasts', event: 'deleted' }, ping: { enabled: false } },
      callbackCredentials: { hookBearer: 'tok-123456', hookBasic: { username: 'u', password: 'p' } },
    });
    expect(configOf(['--settings', file, '--webhooks', 'http://127.0.0.1:1/x']).webhookUrl).toBe(
      'http://127.0.0.1:1/x',
    );
  });

  it.each([
    ['webhooks:\n  a: { event: created }\n', /resource/],
    ['webhooks:\n  a: { resource: pets, event: born }\n', /event/],
    ['webhookUrl: ftp://127.0.0.1/x\n', /webhookUrl/],
    ['webhookSignature: md5\n', /webhookSignature/],
    ['callbackCredentials:\n  b: { tokn: x }\n', /callbackCredentials/],
    ['webhooks:\n  a: { url: "http://10.0.0.9/x" }\n', /webhooks\.a\.url: host 10\.0\.0\.9 is not allowed/],
  ])('refuses %j naming the field', (text, message) => {
    const r = parseConfig(['--settings', write('bad-hooks.yaml', text)], {});
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(message) });
  });

  it('a webhook the document does not have is refused at start', async () => {
    const file = write('unknown-hook.yaml', 'webhooks:\n  nope: { enabled: false }\n');
    await expect(
      createMockServer({
        specPath: CRUD,
        settingsFile: file,
        keys: [{ key: KEY, plan: 'pro' }],
        quiet: true,
      }),
    ).rejects.toThrow(/webhooks\.nope: the document has no webhook nope/);
  });
});
