import { createAjv } from '../spec/ajv';
import { compileCallbacks } from '../spec/callbacks';
import { createRelay, relayPath } from './callback-relay';

const ajv = createAjv();
const specs = compileCallbacks(
  {
    onEvent: { '{$request.body#/callbackUrl}': { post: {} } },
    onAudit: { '{$request.query.audit}/audits': { put: {} } },
    onHook: { '{$request.header.X-Hook}': { post: {} } },
  },
  (schema) => ajv.compile(schema as object),
  'POST /s',
);
const ORIGIN = 'http://proxy.internal:4010';

describe('the callback relay', () => {
  it('rewrites every source the request carries to a relay path and remembers the target', () => {
    const relay = createRelay(() => ORIGIN, { hosts: ['client.example', 'client'] });
    const out = relay.rewrite('createS', specs, {
      search: '?audit=http%3A%2F%2Fclient%2Faudit&x=1',
      headers: { 'x-hook': 'https://client.example/hook' },
      json: JSON.stringify({ topic: 't', callbackUrl: 'http://client.example/cb' }),
    });
    const body = JSON.parse(out.json ?? '{}') as { topic: string; callbackUrl: string };
    expect(body.topic).toBe('t');
    const urls = [
      body.callbackUrl,
      new URLSearchParams(out.search).get('audit') ?? '',
      out.headers['x-hook'] ?? '',
    ];
    expect(new URLSearchParams(out.search).get('x')).toBe('1');
    const targets = urls.map((u) => {
      expect(u.startsWith(`${ORIGIN}/_mock/relay/`)).toBe(true);
      const at = relayPath(new URL(u).pathname);
      return relay.lookup(at?.token ?? '')?.target;
    });
    expect(targets).toEqual([
      'http://client.example/cb',
      'http://client/audit',
      'https://client.example/hook',
    ]);
    expect(relay.size()).toBe(3);
  });

  it('never rewrites a URL naming a host --callback-hosts does not allow (loopback by default)', () => {
    const relay = createRelay(() => ORIGIN);
    const internal = { search: '', headers: {}, json: '{"callbackUrl":"http://169.254.169.254/latest"}' };
    expect(relay.rewrite('createS', specs, internal)).toEqual(internal);
    expect(relay.size()).toBe(0);
    const local = relay.rewrite('createS', specs, {
      ...internal,
      json: '{"callbackUrl":"http://127.0.0.1:9/cb"}',
    });
    expect(local.json).toContain('/_mock/relay/');
  });

  it('leaves what is not an absolute http(s) URL, and a request without sources, as it was', () => {
    const relay = createRelay(() => ORIGIN);
    const given = { search: '?audit=relative', headers: {}, json: '{"callbackUrl":"ftp://x"}' };
    expect(relay.rewrite('createS', specs, given)).toEqual(given);
    expect(relay.size()).toBe(0);
  });

  it('is bounded: a full table rewrites nothing more; a relay expires', () => {
    let now = 0;
    const relay = createRelay(
      () => ORIGIN,
      { maxPending: 1, ttlMs: 1000, hosts: ['c'] },
      () => now,
    );
    const req = (n: number) => ({
      search: '',
      headers: {},
      json: JSON.stringify({ callbackUrl: `http://c/${n}` }),
    });
    const first = JSON.parse(relay.rewrite('createS', specs, req(1)).json ?? '{}') as { callbackUrl: string };
    expect(relay.rewrite('createS', specs, req(2)).json).toBe(req(2).json);
    expect(relay.refused()).toBe(1);
    const token = relayPath(new URL(first.callbackUrl).pathname)?.token ?? '';
    expect(relay.lookup(token)?.target).toBe('http://c/1');
    now = 1000;
    expect(relay.lookup(token)).toBeUndefined();
    // Expired ones make room.
    expect(relay.rewrite('createS', specs, req(3)).json).not.toBe(req(3).json);
  });

  it('reads only its own paths', () => {
    expect(relayPath(`/_mock/relay/${'a'.repeat(32)}/audits/1`)).toEqual({
      token: 'a'.repeat(32),
      rest: '/audits/1',
    });
    expect(relayPath('/_mock/relay/short')).toBeUndefined();
    expect(relayPath('/v1/things')).toBeUndefined();
  });
});
