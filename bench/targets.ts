/**
 * The servers the bench compares, each its own process on 127.0.0.1 with a port the OS picked: our mock
 * (compiled, dist/mock/node/main.js), Prism's mock (5.12.0) and the bare ceiling (bench/ceiling-server.js).
 *
 * Logging, compared like with like (`--logs`): "muted" is ours with --quiet against Prism with -v silent;
 * "default" is both with their default logging going to a log file in the temp directory (what
 * `npm start > mock.log` does). A file, not a pipe, so the bench never spends CPU draining logs.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { Periodic } from './lib/load';
import { freePort, startServer, type ServerProcess } from './lib/proc';
import {
  CATEGORIES,
  ENT_KEY,
  PRO_KEY,
  categories,
  type BenchRequest,
  type TargetKind,
  type TargetName,
  type Workload,
} from './workloads';

export const ROOT = path.join(__dirname, '..');
export const MOCK_MAIN = path.join(ROOT, 'dist', 'mock', 'node', 'main.js');
/** The validation proxy's process entry (`petstore-mock --proxy` starts it). */
export const PROXY_MAIN = path.join(ROOT, 'dist', 'proxy', 'main.js');
export const FULL_SPEC = path.join(ROOT, 'fixtures', 'specs', 'petstore-full.yaml');
export const PRISM_MAIN = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const CEILING = path.join(__dirname, 'ceiling-server.js');

export interface Target {
  name: TargetName;
  kind: TargetKind;
  server: ServerProcess;
  /** Put the server in the state the workload needs (ours only: the others hold none). */
  prepare(w: Workload): Promise<void>;
  /** What to do now and then while the workload runs (ours: keep the store under its record cap). */
  during(w: Workload): Periodic | undefined;
  /** The port that serves this workload, when it is not `server.port` (the ceiling: one per answer). */
  portFor?(w: Workload): number;
}

export interface WorkDir {
  dir: string;
  keysFile: string;
  prismSpec: string;
  seed10: string;
  seed10k: string;
}

/** A scratch directory with the bench's keys, Prism's copy of the spec and the by-id seed files. */
export function workDir(): WorkDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-'));
  const keysFile = path.join(dir, 'keys.json');
  const keys = [
    { key: ENT_KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000_000 },
    { key: PRO_KEY, plan: 'pro' },
  ];
  fs.writeFileSync(keysFile, JSON.stringify({ keys }));
  // Prism serves the document's paths without the /v1 of `servers`: its copy carries /v1 in every path.
  const doc = parse(fs.readFileSync(path.join(ROOT, 'spec', 'openapi.yaml'), 'utf8')) as {
    servers?: unknown;
    paths: Record<string, unknown>;
  };
  doc.servers = [{ url: 'http://127.0.0.1' }];
  doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, v]) => [`/v1${p}`, v]));
  const prismSpec = path.join(dir, 'openapi-v1.yaml');
  fs.writeFileSync(prismSpec, stringify(doc));
  const seed = (n: number) => {
    const file = path.join(dir, `seed-${n}.json`);
    fs.writeFileSync(file, JSON.stringify({ categories: categories(n) }));
    return file;
  };
  return { dir, keysFile, prismSpec, seed10: seed(10), seed10k: seed(10_000) };
}

/** One request, the whole answer read. */
export async function send(port: number, p: string, r: BenchRequest): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${p}`, {
    method: r.method,
    headers: r.headers,
    body: r.body === '' ? undefined : r.body,
  });
}

/** Our mock's options per instance: muted unless logged; the full spec and a seed file for the by-id pair. */
export function oursArgs(name: TargetName, w: WorkDir): string[] {
  // Loopback is the bench's "balancer", so the 401 workload's forwarded addresses are believed.
  const common = ['--keys', w.keysFile, '--trust-proxy', 'loopback', '--ban-threshold', '0'];
  if (name === 'ours-10' || name === 'ours-10k')
    return [...common, '--quiet', '--spec', FULL_SPEC, '--seed', name === 'ours-10' ? w.seed10 : w.seed10k];
  return [...common, '--seed', 'none', ...(name === 'ours-log' ? [] : ['--quiet'])];
}

export async function startOurs(
  name: string,
  mockArgs: string[],
  logFile: string | null = null,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const args = [...nodeArgs, MOCK_MAIN, '--port', String(port), ...mockArgs];
  return startServer({ name, args, port, probePath: CATEGORIES, logFile });
}

/** Prism's mock (the installed @stoplight/prism-cli) on `spec`, polled on `probePath` until it answers. */
export async function startPrism(
  name: string,
  spec: string,
  logFile: string | null,
  probePath = CATEGORIES,
): Promise<ServerProcess> {
  const port = await freePort();
  const args = [PRISM_MAIN, 'mock', '-h', '127.0.0.1', '-p', String(port), spec];
  if (!logFile) args.push('-v', 'silent');
  return startServer({ name, args, port, probePath, logFile, timeoutMs: 60_000 });
}

/** The ceiling's process: one server per answer; `port` is the first one's, `ports` all of them in order. */
export async function startCeiling(
  dir: string,
  answers: CannedAnswer[],
): Promise<ServerProcess & { ports: number[] }> {
  const file = path.join(dir, 'ceiling-answers.json');
  fs.writeFileSync(file, JSON.stringify(answers));
  const ports: number[] = [];
  while (ports.length < answers.length) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const args = [CEILING, '--ports', ports.join(','), '--answers', file];
  const server = await startServer({
    name: 'ceiling',
    args,
    port: ports[0] ?? 0,
    probePath: CATEGORIES,
    logFile: null,
  });
  return Object.assign(server, { ports });
}

/** The ceiling as a target: each workload goes to the port of its own answer (captured in the same order). */
export function ceilingTarget(
  server: ServerProcess & { ports: number[] },
  answered: readonly Workload[],
): Target {
  const portFor = (w: Workload): number => {
    const port = server.ports[answered.indexOf(w)];
    if (port === undefined) throw new Error(`the ceiling has no answer for ${w.name}`);
    return port;
  };
  return { ...passiveTarget('ceiling', 'ceiling', server), portFor };
}

async function resetStore(name: string, port: number): Promise<void> {
  // Reset with the enterprise key: an anonymous admin call would be rate limited like any other. The custom
  // header is what a cross-site page cannot send (the mock refuses a reset without it).
  const ent = { Authorization: `Bearer ${ENT_KEY}`, 'X-Mock-Admin': '1' };
  const reset = await send(port, '/_mock/reset', { method: 'POST', headers: ent, body: '' });
  await reset.arrayBuffer();
  if (reset.status !== 200) throw new Error(`${name}: POST /_mock/reset answered ${reset.status}`);
}

/**
 * Our mock's state for each workload, through its own HTTP interface: ten categories for the list; an empty
 * store before each create run, so the store never reaches a cap on stored records.
 */
export function oursTarget(name: TargetName, server: ServerProcess): Target {
  const prepare = async (w: Workload) => {
    if (w.name === 'create') return resetStore(name, server.port);
    if (w.name !== 'list') return;
    await resetStore(name, server.port);
    for (const c of categories(10)) {
      const headers = { Authorization: `Bearer ${ENT_KEY}`, 'Content-Type': 'application/json' };
      const r = await send(server.port, CATEGORIES, { method: 'POST', headers, body: JSON.stringify(c) });
      await r.arrayBuffer();
    }
  };
  // A create run empties the store every resetEveryMs: with the default --max-records (10,000) every create is
  // a 201, never a 409 record_limit, and memory holds what a store within its cap holds.
  const during = (w: Workload): Periodic | undefined =>
    w.resetEveryMs ? { everyMs: w.resetEveryMs, run: () => resetStore(name, server.port) } : undefined;
  return { name, kind: 'ours', server, prepare, during };
}

export function passiveTarget(name: TargetName, kind: TargetKind, server: ServerProcess): Target {
  return { name, kind, server, prepare: async () => undefined, during: () => undefined };
}

/** What the ceiling replays: the request it matches and our mock's answer, raw header names and order kept. */
export interface CannedAnswer {
  method: string;
  path: string;
  authorization: string;
  requestBody: string;
  status: number;
  /** Flat [name, value, …] as our mock sent them, minus what Node adds by itself. */
  headers: string[];
  body: string;
}

const NODE_ADDS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** One request to our mock with node:http, keeping the raw header list (names as sent, in order). */
function capture(port: number, p: string, r: BenchRequest): Promise<CannedAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: p, method: r.method, headers: r.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: string[] = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] ?? '';
            if (!NODE_ADDS.has(name.toLowerCase())) headers.push(name, res.rawHeaders[i + 1] ?? '');
          }
          resolve({
            method: r.method,
            path: p,
            authorization: r.headers.Authorization ?? '',
            requestBody: r.body,
            status: res.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(r.body === '' ? undefined : r.body);
  });
}

/** The workload's request as one connection sends it (with its rotating header's first value). */
const withRotation = (w: Workload): BenchRequest =>
  w.rotate
    ? { ...w.request, headers: { ...w.request.headers, [w.rotate.name]: w.rotate.value(0) } }
    : w.request;

/** What our mock answers to each workload the ceiling runs, captured for the ceiling to replay. */
export async function captureAnswers(
  targets: Partial<Record<TargetName, Target>>,
  list: readonly Workload[],
): Promise<{ answers: CannedAnswer[]; answered: Workload[] }> {
  const answers: CannedAnswer[] = [];
  const answered: Workload[] = [];
  for (const w of list) {
    const ours = targets[w.ours];
    if (!ours || !w.others.includes('ceiling')) continue;
    await ours.prepare(w);
    answers.push(await capture(ours.server.port, w.path, withRotation(w)));
    answered.push(w);
  }
  return { answers, answered };
}

/**
 * Whether the mock serves GET /categories/{id} from its store (the lead's item routes): a 200 whose body is
 * the stored category. Otherwise the by-id workloads are skipped with this reason.
 */
export async function byIdUnavailable(port: number, id: number): Promise<string | null> {
  const r = await send(port, `${CATEGORIES}/${id}`, {
    method: 'GET',
    headers: { Authorization: `Bearer ${ENT_KEY}` },
    body: '',
  });
  const text = await r.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  const name = (body as { name?: unknown } | null)?.name;
  if (r.status === 200 && name === `category-${id}`) return null;
  return `GET ${CATEGORIES}/${id} answered ${r.status} ${text.slice(0, 60)} (item routes not served from the store yet)`;
}
