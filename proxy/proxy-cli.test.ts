import { parseProxyConfig } from './proxy-cli';

describe('--callbacks-relay', () => {
  it.each(['self', 'http://proxy.internal:4010', 'https://proxy.example.com/'])('takes %s', (value) => {
    const parsed = parseProxyConfig(['--proxy', 'http://127.0.0.1:9/v1', '--callbacks-relay', value]);
    expect(parsed.ok && parsed.config.callbacksRelay).toBe(value);
  });

  it.each(['nope', 'ftp://x', 'http://proxy/with/path'])('refuses %s', (value) => {
    expect(parseProxyConfig(['--proxy', 'http://127.0.0.1:9/v1', '--callbacks-relay', value])).toEqual({
      ok: false,
      error: expect.stringMatching(/--callbacks-relay needs self or the proxy's origin/),
    });
  });

  it('is off unless given', () => {
    const parsed = parseProxyConfig(['--proxy', 'http://127.0.0.1:9/v1']);
    expect(parsed.ok && parsed.config.callbacksRelay).toBeUndefined();
  });
});
