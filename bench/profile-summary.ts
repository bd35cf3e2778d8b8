/**
 * Summarise a V8 CPU profile (`node --cpu-prof`): self time by package (or our own folder), the hottest
 * functions, and our own functions by total time (self and everything they call; idle, GC and the kernel's
 * socket writes are left out of the base, so the shares are of the CPU the process spent working).
 * Usage: tsx bench/profile-summary.ts FILE.cpuprofile [--top N] [--from MS] [--until MS] (only that part of the profile)
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which package (or our own top-level folder, or node internals) a script URL belongs to. */
export function ownerOf(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:') || url === '') return url === '' ? '(native/gc/idle)' : 'node internals';
  const m = /\/(dist\/)?(mock|spec|conformance|bench|proxy)\//.exec(url);
  return m ? `ours: ${m[2]}` : url;
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { top: { type: 'string' }, from: { type: 'string' }, until: { type: 'string' } },
    allowPositionals: true,
  });
  const profile = JSON.parse(fs.readFileSync(positionals[0] ?? '', 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const untilUs = values.until ? Number(values.until) * 1000 : Infinity;
  const fromUs = values.from ? Number(values.from) * 1000 : 0;
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed >= fromUs && elapsed <= untilUs)
      self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byOwner = new Map<string, number>();
  const byFn = new Map<string, number>();
  const label = (f: ProfileNode['callFrame']) =>
    `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  for (const [id, us] of self) {
    const f = byId.get(id)?.callFrame;
    if (!f) continue;
    const owner = ownerOf(f.url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    byFn.set(label(f), (byFn.get(label(f)) ?? 0) + us);
  }
  // Total time: each sample counts once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totalOurs = new Map<string, number>();
  let working = 0;
  for (const [id, us] of self) {
    const leaf = byId.get(id)?.callFrame;
    if (!leaf || IDLE.has(leaf.functionName)) continue;
    working += us;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)?.callFrame;
      if (!f || !ownerOf(f.url).startsWith('ours')) continue;
      const name = label(f);
      if (!seen.has(name)) totalOurs.set(name, (totalOurs.get(name) ?? 0) + us);
      seen.add(name);
    }
  }
  const top = Number(values.top ?? 15);
  const show = (title: string, m: Map<string, number>) => {
    process.stdout.write(`${title} (of ${(total / 1000).toFixed(0)} ms sampled)\n`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      process.stdout.write(
        `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}\n`,
      );
  };
  show('Self time by package', byOwner);
  show('Hottest functions (self time)', byFn);
  process.stdout.write(`Our functions by total time (of ${(working / 1000).toFixed(0)} ms working)\n`);
  for (const [k, us] of [...totalOurs].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(
      `  ${((100 * us) / working).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}\n`,
    );
}

/**
 * Samples left out of the working base: waiting, and the kernel's socket writes (in a wall-clock profile they
 * also hold the time the process waited for a core; any server answering the same bytes makes them).
 */
const IDLE = new Set([
  '(idle)',
  '(program)',
  'writev',
  'writeBuffer',
  'writeUtf8String',
  'writeLatin1String',
]);

if (require.main === module) main();
