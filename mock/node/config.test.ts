import { DEFAULTS, nodeDefaults, parseConfig } from './config';

describe('config from argv and env', () => {
  it('defaults to 127.0.0.1:4010, memory store, the demo keys and seed', () => {
    const r = parseConfig([], {});
    expect(r.ok).toBe(true);
    if (r.ok !== true) return;
    expect(r.config).toMatchObject({
      host: '127.0.0.1',
      port: 4010,
      store: 'memory',
      quiet: false,
      corsOrigins: ['*'],
    });
    expect(r.config.keysFile).toMatch(/fixtures\/keys\.json$/);
    expect(r.config.seedFile).toMatch(/fixtures\/seed\.json$/);
    expect(Object.isFrozen(r.config)).toBe(true);
  });

  it('reads PORT, MOCK_KEYS_FILE and REDIS_URL from env; flags win', () => {
    const env = { PORT: '5000', MOCK_KEYS_FILE: '/tmp/k.json', REDIS_URL: 'redis://r:1' };
    const r = parseConfig(['--port', '6000'], env);
    if (r.ok !== true) throw new Error('expected ok');
    expect(r.config.port).toBe(6000);
    expect(r.config.keysFile).toBe('/tmp/k.json');
    expect(r.config.redisUrl).toBe('redis://r:1');
  });

  it.each([
    [['--port', 'abc'], /--port must be an integer/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--store', 'disk'], /--store must be memory or redis/],
    [['--sunset', 'soon'], /--sunset must be a date/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('refuses %j', (argv, message) => {
    const r = parseConfig(argv, {});
    expect(r.ok).toBe(false);
    if (r.ok === false) expect(r.error).toMatch(message);
  });

  it("seeds another --spec empty by default (the default seed is the default document's), unless --seed names one", () => {
    const other = parseConfig(['--spec', 'fixtures/specs/wild/blog-31.yaml'], {});
    const named = parseConfig(['--spec', 'fixtures/specs/wild/blog-31.yaml', '--seed', 'my-seed.json'], {});
    const same = parseConfig(['--spec', 'spec/openapi.yaml'], {});
    expect(other.ok === true && other.config.seedFile).toBeNull();
    expect(named.ok === true && named.config.seedFile).toMatch(/my-seed\.json$/);
    expect(same.ok === true && same.config.seedFile).toMatch(/fixtures\/seed\.json$/);
    // createMockServer({ specPath }) takes the same defaults.
    expect(nodeDefaults('fixtures/specs/wild/blog-31.yaml').seedFile).toBeNull();
    expect(nodeDefaults().seedFile).toMatch(/fixtures\/seed\.json$/);
  });

  it('--no-seed and --seed none mean an empty store; --help asks for help', () => {
    const a = parseConfig(['--no-seed'], {});
    const b = parseConfig(['--seed', 'none'], {});
    expect(a.ok === true && a.config.seedFile).toBeNull();
    expect(b.ok === true && b.config.seedFile).toBeNull();
    expect(parseConfig(['--help'], {}).ok).toBe('help');
    expect(parseConfig(['--version'], {}).ok).toBe('version');
    expect(parseConfig(['-V'], {}).ok).toBe('version');
  });

  it('keeps the documented defaults of the mock policy', () => {
    // The pet store's own settings, keyed by schema and property: no code names a property.
    expect(DEFAULTS.policy).toEqual({
      allowUnknownFields: false,
      rules: { NewCategory: { name: { minLength: 1, maxLength: 200 }, description: { maxLength: 2000 } } },
      readOnlyProperties: 'reject',
      unexpectedBody: 'refuse',
    });
    const tuned = parseConfig(
      ['--allow-empty-name', '--max-name-length', '0', '--max-description-length', '9'],
      {},
    );
    expect(tuned.ok === true && tuned.config.policy.rules.NewCategory).toEqual({
      name: {},
      description: { maxLength: 9 },
    });
    expect(DEFAULTS.maxBodyBytes).toBe(1024 * 1024);
  });

  it("leaves another document's bodies to its schemas: unknown names as they allow, a sent readOnly dropped", () => {
    const other = parseConfig(['--spec', 'fixtures/specs/wild/blog-31.yaml'], {});
    expect(other.ok === true && other.config.policy).toMatchObject({
      allowUnknownFields: true,
      readOnlyProperties: 'ignore',
    });
    const strict = parseConfig(
      ['--spec', 'fixtures/specs/wild/blog-31.yaml', '--settings', 'spec/openapi.settings.json'],
      {},
    );
    expect(strict.ok === true && strict.config.policy).toMatchObject({
      allowUnknownFields: false,
      readOnlyProperties: 'reject',
    });
  });
});

describe('--trust-proxy (issue 13)', () => {
  it('trusts no proxy by default and takes a comma-separated list', () => {
    expect(DEFAULTS.trustProxy).toEqual([]);
    const r = parseConfig(['--trust-proxy', 'loopback, 10.0.0.0/8,::1'], {});
    expect(r.ok === true && r.config.trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1']);
  });

  it('refuses an entry that is no IP, CIDR or range name', () => {
    const r = parseConfig(['--trust-proxy', 'loopback,proxy.example'], {});
    expect(r.ok).toBe(false);
    if (r.ok === false) expect(r.error).toMatch(/--trust-proxy: "proxy.example"/);
  });
});

describe('no secret in a config error', () => {
  it.each([
    'redis://:s3cret-pw@127.0.0.1:notaport',
    'redis://user:s3cret-pw@[bad',
    'redis://:s3cret-pw@host:99999',
    'http://:s3cret-pw@host:6379',
    's3cret-pw',
    ':s3cret-pw@host',
  ])('a malformed --redis-url %s is refused without its password', (url) => {
    for (const r of [
      parseConfig(['--store', 'redis', '--redis-url', url], {}),
      parseConfig(['--store', 'redis'], { REDIS_URL: url }),
    ]) {
      expect(r.ok).toBe(false);
      if (r.ok !== false) return;
      expect(r.error).toMatch(/--redis-url/);
      expect(r.error).not.toContain('s3cret');
    }
  });

  it('a good --redis-url with a password is accepted', () => {
    const r = parseConfig(['--store', 'redis', '--redis-url', 'redis://:pw@db.example:6379/2'], {});
    expect(r.ok).toBe(true);
  });

  it('refuses an admin token shorter than 16 characters, without echoing it', () => {
    const r = parseConfig(['--admin-token', 'short-s3cret'], {});
    expect(r.ok).toBe(false);
    if (r.ok === false) expect(r.error).not.toContain('short-s3cret');
    expect(parseConfig([], { MOCK_ADMIN_TOKEN: 'a-long-enough-admin-token' }).ok).toBe(true);
  });
});

describe('latency and faults (issue 33)', () => {
  it('reads --latency, --faults (a share or a percentage) and --random-seed', () => {
    const r = parseConfig(['--latency', '100-300', '--faults', '5%', '--random-seed', '42'], {});
    if (r.ok !== true) throw new Error(JSON.stringify(r));
    expect(r.config).toMatchObject({ latency: '100-300', faults: 0.05, randomSeed: 42 });
    const d = parseConfig(['--faults', '0.25'], {});
    if (d.ok !== true) throw new Error('expected ok');
    expect(d.config).toMatchObject({ latency: null, faults: 0.25, randomSeed: 1 });
  });

  it.each([
    [['--latency', '300-100'], /latency must be MS or MIN-MAX/],
    [['--latency', '20000'], /up to 10000/],
    [['--faults', '1.5'], /--faults must be a share from 0 to 1/],
    [['--faults', 'often'], /--faults must be a share/],
    [['--random-seed', 'x'], /--random-seed must be an integer/],
  ])('refuses %j', (argv, message) => {
    const r = parseConfig(argv, {});
    expect(r.ok).toBe(false);
    if (r.ok === false) expect(r.error).toMatch(message);
  });
});

describe('webhooks (issue 33)', () => {
  it('reads --webhooks, and the signing secret from MOCK_WEBHOOK_SECRET only', () => {
    const r = parseConfig(['--webhooks', 'http://127.0.0.1:9000/hooks'], {
      MOCK_WEBHOOK_SECRET: 'whsec_env',
    });
    if (r.ok !== true) throw new Error(JSON.stringify(r));
    expect(r.config).toMatchObject({ webhookUrl: 'http://127.0.0.1:9000/hooks', webhookSecret: 'whsec_env' });
    expect(parseConfig(['--webhook-secret', 'x'], {}).ok).toBe(false);
  });

  it('refuses a target --callback-hosts does not allow, at start', () => {
    const r = parseConfig(['--webhooks', 'http://hooks.example/in'], {});
    expect(r).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--webhooks: host hooks\.example is not allowed/),
    });
    const allowed = parseConfig(
      ['--webhooks', 'http://hooks.example/in', '--callback-hosts', 'hooks.example'],
      {},
    );
    expect(allowed.ok).toBe(true);
  });
});
