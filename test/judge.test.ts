/**
 * The third-party judge (issue 17): `npm run judge` puts Stoplight Prism's validation proxy (`prism proxy
 * --errors`) in front of the mock serving each wild document and the pet store, sends the generic walk's calls
 * through it, and exits 0 only when Prism reports no violation. Fails when Prism cannot start (it is a pinned devDependency).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
it('Prism reports no violation for the walk of every wild document and the pet store', () => {
  expect.hasAssertions();
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'judge.js')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 170_000,
  });
  // Prism is a pinned devDependency: a Prism that cannot start here is a failure, never a skip.
  expect(run.stderr).not.toMatch(/prism (did not start|exited)/);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  const lines = run.stdout.split('\n').filter((l) => / calls through prism proxy --errors/.test(l));
  // Every wild document and the pet store were judged, each with calls and no violation.
  expect(lines.length).toBeGreaterThanOrEqual(6);
  for (const line of lines)
    expect(line).toMatch(/^ok {3}\S+: [1-9]\d* calls through prism proxy --errors, 0 violation\(s\)$/);
  expect(run.stdout).toContain('Prism reports no violation.');
}, 180_000);
