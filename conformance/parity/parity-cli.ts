/** `--target A --compare B [--compare-key K]`: the parity run from the CLI; resolves to the exit code. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CliOptions } from '../args';
import { ConformanceError } from '../run';
import { findings, formatParityAs, runParity } from './run-parity';

/**
 * Exit 1 when the servers differ where the document does not allow both answers, 0 when they behave alike, 2
 * when either run could not happen.
 */
export async function runParityCommand(
  cli: CliOptions,
  compare: { target: string; key: string },
): Promise<number> {
  let run;
  try {
    run = await runParity(cli.run, compare);
  } catch (err) {
    if (!(err instanceof ConformanceError)) throw err;
    process.stderr.write(`conformance: ${err.message}\n`);
    return 2;
  }
  for (const extra of cli.reports) {
    await fs.mkdir(path.dirname(path.resolve(extra.file)), { recursive: true });
    await fs.writeFile(extra.file, formatParityAs(run, extra.reporter));
    process.stderr.write(`conformance: ${extra.reporter} report in ${extra.file}\n`);
  }
  const text = formatParityAs(run, cli.reporter);
  if (cli.output) await fs.writeFile(cli.output, text);
  else process.stdout.write(text);
  const found = findings(run.result);
  if (found.length > 0)
    process.stderr.write(
      `conformance: exit 1: ${found.length} difference(s) the document does not allow both ways\n`,
    );
  return found.length > 0 ? 1 : 0;
}
