import { callbackHostsProblem, targetProblem } from './callbacks';

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
