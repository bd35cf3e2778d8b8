/**
 * Start-up to the first answered request (issue 14), each run a fresh process with the default options
 * (demo keys, seed): `node dist/mock/node/main.js`, `npm start` when the build is already up to date (its
 * first run, not measured, builds if needed), and Prism's mock for comparison.
 */
import fs from 'node:fs';
import path from 'node:path';
import { median } from './lib/load';
import { freePort, startServer } from './lib/proc';
import { MOCK_MAIN, ROOT, startPrism } from './targets';
import { CATEGORIES } from './workloads';

export interface Timing {
  runsMs: number[];
  medianMs: number;
}

export interface StartupResult {
  dist: Timing;
  /** null when scripts/start.js (the build-only-when-stale start) is not there. */
  npmStart: Timing | null;
  prism: Timing | null;
}

async function timeStart(name: string, command: string | undefined, args: (port: number) => string[]) {
  const port = await freePort();
  const server = await startServer({
    name,
    command,
    args: args(port),
    port,
    probePath: CATEGORIES,
    logFile: null,
  });
  await server.stop();
  return server.startupMs;
}

async function timed(runs: number, once: () => Promise<number>): Promise<Timing> {
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) runsMs.push(await once());
  return { runsMs, medianMs: median(runsMs) };
}

/** `runs` starts of each; Prism (slow to start) at most three times, and only when a spec copy is given. */
export async function measureStartup(runs: number, prismSpec: string | null): Promise<StartupResult> {
  const dist = await timed(runs, () => timeStart('dist', undefined, (p) => [MOCK_MAIN, '--port', String(p)]));
  let npmStart: Timing | null = null;
  if (fs.existsSync(path.join(ROOT, 'scripts', 'start.js'))) {
    const npm = (p: number) => ['start', '--silent', '--prefix', ROOT, '--', '--port', String(p)];
    await timeStart('npm start (first)', 'npm', npm);
    npmStart = await timed(runs, () => timeStart('npm start', 'npm', npm));
  }
  const prism = prismSpec
    ? await timed(Math.min(runs, 3), async () => {
        const server = await startPrism('prism', prismSpec, null);
        await server.stop();
        return server.startupMs;
      })
    : null;
  return { dist, npmStart, prism };
}
