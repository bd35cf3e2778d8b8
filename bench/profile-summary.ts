/**
 * Summarise a V8 CPU profile (`node --cpu-prof`): self time by package (or our own folder) and the hottest
 * functions. Usage: tsx bench/profile-summary.ts FILE.cpuprofile [--top N] [--from MS] [--until MS] (only that part of the profile)
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
  const m = /\/(dist\/)?(mock|spec|conformance|bench)\//.exec(url);
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
  for (const [id, us] of self) {
    const f = byId.get(id)?.callFrame;
    if (!f) continue;
    const owner = ownerOf(f.url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    byFn.set(name, (byFn.get(name) ?? 0) + us);
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
}

if (require.main === module) main();
