/**
 * Instructions per `GET /v1/categories` (issue 42), counted by `valgrind --tool=callgrind`: a figure that does
 * not move with the machine's load, unlike req/s on a shared machine. Our compiled mock (an enterprise key, 10
 * stored) and the ceiling (bench/ceiling-server.js, serving our captured answer) each run twice under callgrind:
 * 300 warm-up requests, then N sequential keep-alive GETs; (count with N = long) − (count with N = short),
 * divided by the difference, is what one request costs (start-up, warm-up and the JIT cancel out). User space
 * only: the kernel's socket work, the same for both, is not counted.
 * The warm-up matters: V8 compiles (TurboFan, on the main thread under `--single-threaded`) for the first few
 * thousand requests, and with 300 warm-up requests most of what a 500 → 2,500 window counted was that compiling,
 * not the requests (docs/performance.md). `--warmup 6000` counts the requests once the code has settled.
 * `--mock PATH` counts another build's `dist/mock/node/main.js` (an older commit) with this harness.
 * `--workload` counts another of the bench's requests (bench/lib/counted-workloads.ts): the create, the 401, the
 * 404; every answer must have the workload's status.
 * Usage: tsx bench/instructions.ts [--short 500] [--long 2500] [--only ours|ceiling] [--single N]
 *   [--workload list|create|unauthorized|not-found] [--warmup 300] [--mock dist/mock/node/main.js]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './lib/proc';
import { CATEGORIES, ENT_KEY } from './workloads';
import { MOCK_MAIN, workDir } from './targets';
import { countedWorkload, type CountedRequest, type CountedWorkload } from './lib/counted-workloads';

const CEILING = path.join(__dirname, 'ceiling-server.js');
let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const auth = { Authorization: `Bearer ${ENT_KEY}` };

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

/** One request on the kept-alive connection, the whole answer read. */
function request(port: number, method: string, p: string, headers: Record<string, string>, body = '') {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method, path: p, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('error', reject);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.rawHeaders,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A request that is sent again on a new connection when the server closed the kept-alive one under it (its idle
 * timer fires late under callgrind on a busy machine).
 */
async function send(port: number, r: CountedRequest): Promise<Answer> {
  try {
    return await request(port, r.method, r.path, r.headers, r.body);
  } catch {
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    return request(port, r.method, r.path, r.headers, r.body);
  }
}

/** The workload's `n` requests from the `from`-th on (its resets between them); throws on another status. */
async function sendAll(port: number, w: CountedWorkload, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    if (w.reset && i % w.reset.every === 0) await send(port, w.reset.request);
    const answer = await send(port, w.request(i));
    if (answer.status !== w.expect)
      throw new Error(`${w.name}: ${answer.status} instead of ${w.expect}: ${answer.body.slice(0, 200)}`);
  }
}

/** Run `args` under callgrind, send `requests` GETs after the warm-up, stop it; its instruction count. */
let warmup = 300;

async function countRun(args: string[], port: number, requests: number, w: CountedWorkload, ours: boolean) {
  const out = path.join(os.tmpdir(), `callgrind-${process.pid}-${port}.out`);
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, ...args], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Until it answers (minutes under callgrind on a busy machine); a refused probe leaves nothing behind.
  for (let tries = 0; ; tries++) {
    try {
      await request(port, 'GET', CATEGORIES, auth);
      break;
    } catch (err) {
      agent.destroy();
      agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      if (tries > 4800) {
        child.kill('SIGKILL');
        throw err;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (ours) for (const r of w.prepare) await send(port, r);
  await sendAll(port, ours ? w : { ...w, reset: undefined }, 0, warmup + requests);
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  child.kill('SIGTERM');
  await exited;
  const text = fs.readFileSync(out, 'utf8');
  fs.rmSync(out);
  const total = /^(?:summary|totals):\s+(\d+)/m.exec(text)?.[1];
  if (!total) throw new Error(`no total in ${out}`);
  return Number(total);
}

async function perRequest(
  name: string,
  start: (port: number) => string[],
  short: number,
  long: number,
  w: CountedWorkload,
) {
  const counts: number[] = [];
  for (const n of [short, long]) {
    const port = await freePort();
    counts.push(await countRun(start(port), port, n, w, name === 'ours'));
  }
  const per = ((counts[1] ?? 0) - (counts[0] ?? 0)) / (long - short);
  console.log(
    `${name}: ${Math.round(per).toLocaleString('en')} instructions per request (${counts.join(' / ')})`,
  );
  return per;
}

const NODE_ADDS = /^(content-length|date|connection|keep-alive|transfer-encoding)$/i;

/** Our answer to the workload (the GET with 10 stored…), as the ceiling replays it (Node's own headers left out). */
async function captureOurs(args: (port: number) => string[], w: CountedWorkload): Promise<Answer> {
  const port = await freePort();
  const [command = '', ...rest] = args(port);
  const child = spawn(command, rest, { stdio: 'ignore' });
  try {
    for (let tries = 0; ; tries++) {
      const ok = await request(port, 'GET', CATEGORIES, auth).catch(() => null);
      if (ok) break;
      if (tries > 400) throw new Error('ours did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const r of w.prepare) await send(port, r);
    const answer = await send(port, w.request(0));
    const headers: string[] = [];
    for (let i = 0; i + 1 < answer.headers.length; i += 2)
      if (!NODE_ADDS.test(answer.headers[i] ?? ''))
        headers.push(answer.headers[i] ?? '', answer.headers[i + 1] ?? '');
    return { ...answer, headers };
  } finally {
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      short: { type: 'string' },
      long: { type: 'string' },
      only: { type: 'string' },
      single: { type: 'string' },
      workload: { type: 'string' },
      warmup: { type: 'string' },
      mock: { type: 'string' },
    },
  });
  warmup = Number(values.warmup ?? 300);
  const mockMain = values.mock ? path.resolve(values.mock) : MOCK_MAIN;
  const workload = countedWorkload(values.workload ?? 'list');
  const short = Number(values.short ?? 500);
  const long = Number(values.long ?? 2500);
  const w = workDir();
  const node = [process.execPath, '--single-threaded'];
  const oursArgs = (port: number) => [
    ...node,
    mockMain,
    ...['--port', String(port), '--keys', w.keysFile, '--seed', 'none', '--quiet', ...workload.flags],
  ];
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`${workload.name}: ${mockMain}, ${warmup} warm-up requests; load average at start: ${load()}`);
  // Captured first, outside callgrind: that start also fills the spec's validation cache
  // (node_modules/.cache), which every counted start then reads, as a second `npm start` does.
  const file = path.join(w.dir, 'answers.json');
  fs.writeFileSync(file, JSON.stringify([await captureOurs(oursArgs, workload)]));
  // One counted run of ours with N requests (two such runs side by side halve the time on a busy machine).
  if (values.single !== undefined) {
    const port = await freePort();
    const count = await countRun(oursArgs(port), port, Number(values.single), workload, true);
    console.log(`ours, ${values.single} requests after the warm-up: ${count} instructions`);
    return;
  }
  let ours = 0;
  if (values.only !== 'ceiling') ours = await perRequest('ours', oursArgs, short, long, workload);
  if (values.only !== 'ours') {
    // The ceiling serves the answer ours gives now.
    const args = (p: number) => [...node, CEILING, '--ports', String(p), '--answers', file];
    const ceiling = await perRequest('ceiling', args, short, long, workload);
    if (ours) console.log(`ceiling / ours: ${(ceiling / ours).toFixed(2)}×`);
  }
  console.log(`load average at end: ${load()}`);
  fs.rmSync(w.dir, { recursive: true, force: true });
}

void main();
