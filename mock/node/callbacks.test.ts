import { callbackHostsProblem, signatureOf, targetProblem } from './callbacks';

describe('callback targets', () => {
  it('allows loopback by default, and only the hosts listed', () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://[::1]:9/x',
      'https://127.9.9.9/',
    ])
      expect(targetProblem(url, ['loopback'])).toBeUndefined();
    for (const url of ['http://10.0.0.1/x', 'http://example.com/', 'http://169.254.169.254/latest'])
      expect(targetProblem(url, ['loopback'])).toMatch(/not allowed/);
    expect(targetProblem('http://hooks.example:8443/x', ['hooks.example:8443'])).toBeUndefined();
    expect(targetProblem('http://hooks.example:9000/x', ['hooks.example:8443'])).toMatch(/not allowed/);
    expect(targetProblem('ftp://127.0.0.1/x', ['loopback'])).toMatch(/not http/);
    expect(targetProblem('http://u:p@127.0.0.1/x', ['loopback'])).toMatch(/credentials/);
    expect(targetProblem('/relative', ['loopback'])).toMatch(/absolute/);
  });

  it('refuses wildcards and junk in the list', () => {
    expect(callbackHostsProblem(['loopback', 'hooks.example', '10.0.0.2:80'])).toBeUndefined();
    expect(callbackHostsProblem(['*'])).toMatch(/no wildcards/);
    expect(callbackHostsProblem(['*.example.com'])).toMatch(/no wildcards/);
  });
});

describe('webhook signatures', () => {
  // RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?").
  const HEX = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
  it('signs the exact bytes: sha256=<hex>, bare hex, or Stripe’s t=…,v1=…', () => {
    expect(signatureOf('sha256', 'Jefe', 'what do ya want for nothing?', 0)).toBe(`sha256=${HEX}`);
    expect(signatureOf('hex', 'Jefe', 'what do ya want for nothing?', 0)).toBe(HEX);
    expect(signatureOf('stripe', 'Jefe', 'ya want for nothing?', 1700000000)).toMatch(
      /^t=1700000000,v1=[0-9a-f]{64}$/,
    );
    expect(signatureOf('stripe', 'Jefe', 'b', 1)).toBe(`t=1,v1=${signatureOf('hex', 'Jefe', '1.b', 0)}`);
  });
});
