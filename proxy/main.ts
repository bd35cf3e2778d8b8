/** Process entry of the validation proxy, `petstore-mock --proxy URL [options]` (bin/commands.js starts it). */
import { runProxy } from './proxy-cli';

runProxy(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`mock: internal error: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(2);
});
