/**
 * The servers the bench compares, each its own process on 127.0.0.1 with a port the OS picked:
 * our mock (compiled, dist/mock/node/main.js), Prism's mock (5.12.0) and the bare node:http ceiling.
 *
 * Logging, compared like with like: "muted" is ours with --quiet against Prism with -v silent; "default" is
 * both with their default logging, stdout and stderr going to a log file in the temp directory (what
 * `npm start > mock.log` does). A file, not a pipe, so the bench process never spends CPU draining logs
 * and both servers pay the same kind of write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { parse, stringify } from 'yaml';
import { answerKey, type CannedAnswer } from './ceiling-server';
import { freePort, startServer, type ServerProcess } from './lib/proc';
import { ENT_KEY, FREE_KEY, TEN, type BenchRequest, type Workload } from './workloads';

export const ROOT = path.join(__dirname, '..');
const MOCK_MAIN = path.join(ROOT, 'dist', 'mock', 'node', 'main.js');
const PRISM_MAIN = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
export const CATEGORIES = '/v1/categories';

export type TargetName = 'ours' | 'ours-log' | 'prism' | 'prism-log' | 'ceiling';

export interface Target {
  name: TargetName;
  kind: 'ours' | 'prism' | 'ceiling';
  server: ServerProcess;
  /** Put the server in the state the workload needs (ours only: the others hold none). */
  prepare(w: Workload): Promise<void>;
}

/** A scratch directory with the bench's keys file and Prism's copy of the spec. */
export function workDir(): { dir: string; keysFile: string; prismSpec: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-bench-'));
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify({
      keys: [
        { key: ENT_KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000_000 },
        { key: FREE_KEY, plan: 'free' },
        { key: 'bench-pro-key', plan: 'pro' },
      ],
    }),
  );
  // Prism serves the document's paths without the /v1 of `servers`: its copy carries /v1 in every path.
  const doc = parse(fs.readFileSync(path.join(ROOT, 'spec', 'openapi.yaml'), 'utf8')) as {
    servers?: unknown;
    paths: Record<string, unknown>;
  };
  doc.servers = [{ url: 'http://127.0.0.1' }];
  doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, v]) => [`/v1${p}`, v]));
  const prismSpec = path.join(dir, 'openapi-v1.yaml');
  fs.writeFileSync(prismSpec, stringify(doc));
  return { dir, keysFile, prismSpec };
}

/** One request, the whole answer read. */
export async function send(port: number, p: string, r: BenchRequest): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${p}`, {
    method: r.method,
    headers: r.headers,
    body: r.body === '' ? undefined : r.body,
  });
}

export async function startOurs(
  name: 'ours' | 'ours-log',
  keysFile: string,
  logFile: string | null,
  nodeArgs: string[] = [],
  mockArgs: string[] = ['--seed', 'none'],
): Promise<ServerProcess> {
  const port = await freePort();
  const args = [...nodeArgs, MOCK_MAIN, '--port', String(port), '--keys', keysFile, ...mockArgs];
  if (name === 'ours') args.push('--quiet');
  return startServer({ name, args, port, probePath: CATEGORIES, logFile });
}

export async function startPrism(
  name: 'prism' | 'prism-log',
  spec: string,
  logFile: string | null,
): Promise<ServerProcess> {
  const port = await freePort();
  const args = [PRISM_MAIN, 'mock', '-h', '127.0.0.1', '-p', String(port), spec];
  if (name === 'prism') args.push('-v', 'silent');
  return startServer({ name, args, port, probePath: CATEGORIES, logFile, timeoutMs: 30_000 });
}

/** Our mock's state for each workload, through its own HTTP interface (admin reset, POSTs, a spent key). */
export function oursTarget(name: 'ours' | 'ours-log', server: ServerProcess): Target {
  const ent = { Authorization: `Bearer ${ENT_KEY}` };
  const prepare = async (w: Workload) => {
    if (w.name === 'list') {
      // Reset with the enterprise key: an anonymous admin call would be rate limited like any other.
      const reset = await send(server.port, '/_mock/reset', { method: 'POST', headers: ent, body: '' });
      if (reset.status !== 200) throw new Error(`${name}: POST /_mock/reset answered ${reset.status}`);
      await reset.arrayBuffer();
      for (const c of TEN) {
        const r = await send(server.port, CATEGORIES, {
          method: 'POST',
          headers: { ...ent, 'Content-Type': 'application/json' },
          body: JSON.stringify(c),
        });
        await r.arrayBuffer();
      }
    }
    if (w.name === 'limited') {
      for (let i = 0; i < 200; i++) {
        const r = await send(server.port, CATEGORIES, w.request('ours'));
        await r.arrayBuffer();
        if (r.status === 429) return;
      }
      throw new Error(`${name}: the free key never reached 429`);
    }
  };
  return { name, kind: 'ours', server, prepare };
}

export function passiveTarget(name: TargetName, kind: 'prism' | 'ceiling', server: ServerProcess): Target {
  return { name, kind, server, prepare: async () => undefined };
}

const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** What our mock answers to each workload, captured for the ceiling to replay byte for byte. */
export async function captureAnswers(ours: Target, workloads: readonly Workload[]): Promise<CannedAnswer[]> {
  const answers: CannedAnswer[] = [];
  for (const w of workloads) {
    await ours.prepare(w);
    const r = w.request('ceiling');
    const res = await send(ours.server.port, CATEGORIES, r);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!SKIPPED_HEADERS.has(k)) headers[k] = v;
    });
    answers.push({
      method: r.method,
      authorization: r.headers.Authorization ?? '',
      requestBody: r.body,
      status: res.status,
      headers,
      body: await res.text(),
    });
  }
  if (
    new Set(answers.map((a) => answerKey(a.method, a.authorization, a.requestBody))).size !== answers.length
  )
    throw new Error('two workloads send the same request: the ceiling could not tell them apart');
  return answers;
}

/** The ceiling as plain JavaScript (transpiled here), so no TypeScript loader sits in its memory or start. */
export async function startCeiling(dir: string, answers: CannedAnswer[]): Promise<ServerProcess> {
  const file = path.join(dir, 'ceiling-answers.json');
  fs.writeFileSync(file, JSON.stringify(answers));
  const source = fs.readFileSync(path.join(__dirname, 'ceiling-server.ts'), 'utf8');
  const js = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  }).outputText;
  const script = path.join(dir, 'ceiling-server.js');
  fs.writeFileSync(script, js);
  const port = await freePort();
  const args = [script, '--port', String(port), '--answers', file];
  return startServer({ name: 'ceiling', args, port, probePath: CATEGORIES, logFile: null });
}
