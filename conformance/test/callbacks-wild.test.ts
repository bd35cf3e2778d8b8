/**
 * Issue 33, a wild document served end to end: ZEIT's (Vercel's) API from APIs.guru's collection
 * (fixtures/specs/wild/public/callbacks-zeit-30.yaml), whose webhook create documents seven callbacks to one URL.
 * The mock serves it (`--callback-hosts loopback`), the runner (`--callbacks-listen` without a port: a free one,
 * printed) creates a webhook naming its receiver, and the seven callbacks arrive, each valid: exit 0. Then the mock
 * serves a drifted copy (the events' `created` a string, not the integer the document says) and the same run
 * fails `callbacks.body-schema`: exit 1. Both processes as users start them, on 127.0.0.1.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const ROOT = path.join(__dirname, '..', '..');
const DOC = path.join(ROOT, 'fixtures', 'specs', 'wild', 'public', 'callbacks-zeit-30.yaml');
const REGISTER = path.join(ROOT, 'test', 'support', 'ts-register.js');
const KEY = 'business-demo-key';

async function startMock(spec: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'mock/node/main.ts',
      '--spec',
      spec,
      '--port',
      '0',
      '--no-seed',
      '--quiet',
      '--callback-hosts',
      'loopback',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const until = Date.now() + 30_000;
  for (;;) {
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out);
    if (m?.[1]) return { child, base: m[1] };
    if (Date.now() > until || child.exitCode !== null) throw new Error(`the mock did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function runner(target: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [
    '--spec',
    DOC,
    '--target',
    target,
    '--scenarios',
    'none',
    '--include',
    'callbacks',
    '--callbacks-listen',
    '--reporter',
    'json',
  ];
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      ['-r', REGISTER, 'conformance/cli.ts', ...args],
      { cwd: ROOT, env: { ...process.env, CONFORMANCE_API_KEY: KEY }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const statuses = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout) as { rules: Array<{ id: string; status: string }> }).rules.map((r) => [
      r.id,
      r.status,
    ]),
  );

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

it('the mock sends the webhook create’s seven callbacks to the runner’s receiver, all valid: exit 0', async () => {
  const mock = await startMock(DOC);
  children.push(mock.child);
  const run = await runner(mock.base);
  expect(run.stderr).toMatch(/receiving callbacks at http:\/\/127\.0\.0\.1:\d+/);
  expect(statuses(run.stdout)).toEqual({
    'callbacks.arrive': 'pass',
    'callbacks.method': 'pass',
    'callbacks.body-schema': 'pass',
    'callbacks.undocumented': 'pass',
  });
  const sent = (await (await fetch(`${new URL(mock.base).origin}/_mock/callbacks`)).json()) as {
    callbacks: Array<{ name: string; outcome: string }>;
  };
  expect(
    sent.callbacks
      .filter((c) => c.outcome === 'sent')
      .map((c) => c.name)
      .sort(),
  ).toEqual([
    'alias',
    'deployment',
    'deploymentError',
    'deploymentReady',
    'domain',
    'domainDelete',
    'domainVerify',
  ]);
  expect(run.code).toBe(0);
}, 90_000);

it('a mock whose callback bodies drifted from the document: callbacks.body-schema fails, exit 1', async () => {
  const doc = YAML.parse(fs.readFileSync(DOC, 'utf8')) as {
    components: { schemas: { event: { properties: Record<string, unknown> } } };
  };
  doc.components.schemas.event.properties.created = { type: 'string' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'callbacks-wild-'));
  const drifted = path.join(dir, 'drifted.yaml');
  fs.writeFileSync(drifted, YAML.stringify(doc));
  try {
    const mock = await startMock(drifted);
    children.push(mock.child);
    const run = await runner(mock.base);
    expect(statuses(run.stdout)).toMatchObject({
      'callbacks.arrive': 'pass',
      'callbacks.body-schema': 'fail',
    });
    expect(run.stdout).toMatch(/\/created must be integer/);
    expect(run.code).toBe(1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
