/**
 * The shell blocks of the docs, as a reader sees them: each with the page and line, what it needs that a test
 * cannot have (`<!-- needs: staging -->` on the line before the fence), the exit code it ends with when it is not 0
 * (`<!-- exit: 1 -->`), a server an earlier step of the page started (`<!-- with: npm start -->`: the test starts it
 * once per page), and the output the page shows for it (an unlabelled fence right after it).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DocBlock {
  page: string;
  line: number;
  code: string;
  needs: string[];
  exit: number;
  /** A command the page ran before (in another terminal): started once per page, before this block. */
  with?: string;
  output?: string;
}

/** What a block may say it needs: things a test cannot have, or cannot afford in a minute or two. */
export const NEEDS: Record<string, string> = {
  staging: 'a real server of yours (a staging URL)',
  secret: 'a key or token of yours',
  browser: 'a browser (or Playwright) to open a page in',
  redis: 'a Redis server',
  nginx: 'nginx installed',
  install: 'a fresh install (npm ci, npm pack, a tarball): minutes and the registry',
  minutes: 'minutes of running (benchmarks, sweeps, the whole test suite)',
  network: 'the network (a document fetched from the registry)',
};

const FENCE = /^```(\w*)\s*$/;

/** Every fenced block of `text`, with the comment marks on the lines just before it. */
export function blocksOf(page: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const out: DocBlock[] = [];
  let last: DocBlock | undefined;
  let between = 0; // prose lines since the last shell block ended
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) {
      if ((lines[i] ?? '').trim() !== '') between++;
      continue;
    }
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? '')) end++;
    const code = lines.slice(start + 1, end).join('\n');
    const lang = open[1] ?? '';
    if (['sh', 'bash', 'shell'].includes(lang)) {
      const marks = lines.slice(Math.max(0, start - 3), start).join('\n');
      const needs = /<!--\s*needs:\s*([^>]*?)\s*-->/.exec(marks)?.[1];
      const exit = /<!--\s*exit:\s*(\d+)\s*-->/.exec(marks)?.[1];
      const before = /<!--\s*with:\s*(.*?)\s*-->/.exec(marks)?.[1];
      last = {
        page,
        line: start + 1,
        code,
        needs: needs ? needs.split(/[\s,]+/).filter(Boolean) : [],
        exit: exit ? Number(exit) : 0,
        ...(before ? { with: before } : {}),
      };
      out.push(last);
      between = 0;
    } else if (lang === '' && last && between === 0 && last.output === undefined) last.output = code;
    i = end;
  }
  return out;
}

/** The pages whose commands a reader runs: README.md and every page of docs/. */
export function docPages(root: string): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}
