// Which wing a command line goes to. The bins (and npm start, npm run conformance) are the only place that knows
// all three: the mock (mock/), the runner (conformance/) and the validation proxy (proxy/). `file(relative)`
// gives a compiled file under dist/.
'use strict';

const hasFlag = (argv, name) => argv.some((a) => a === name || a.startsWith(`${name}=`));
const wantsHelp = (argv) => argv.includes('--help') || argv.includes('-h');

/** `petstore-mock [options]`: the mock; with `--proxy URL` the validation proxy; `--help` describes both. */
function startMockCommand(argv, file) {
  if (wantsHelp(argv)) {
    const { HELP } = require(file('mock/node/help.js'));
    const { PROXY_HELP } = require(file('proxy/proxy-cli.js'));
    process.stdout.write(`${HELP}\n${PROXY_HELP}`);
    return;
  }
  require(file(hasFlag(argv, '--proxy') ? 'proxy/main.js' : 'mock/node/main.js'));
}

/** `petstore-conformance [options]`: the runner; `--judge-har FILE` judges recorded traffic (the proxy's judge). */
function runConformanceCommand(argv, env, file, name) {
  const judgeHar = hasFlag(argv, '--judge-har');
  const diff = hasFlag(argv, '--diff') && !wantsHelp(argv);
  // A run sets the runner's V8 settings before the runner is loaded (conformance/v8-flags.ts).
  if (!judgeHar && !diff) require(file('conformance/v8-flags.js')).tuneV8ForRun();
  const { main, exitWhenFlushed } = require(file('conformance/cli.js'));
  // `--diff OLD NEW [--har FILE…]` (the release gate) replays traffic with the proxy's judge too.
  const run = judgeHar
    ? require(file('proxy/judge/har-cli.js')).runJudgeHar(argv)
    : diff
      ? require(file('proxy/judge/diff-cli.js')).runDiff(argv)
      : main(argv, env);
  run.then(
    (code) => exitWhenFlushed(code),
    (err) => {
      process.stderr.write(`${name}: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
      process.exit(2);
    },
  );
}

module.exports = { startMockCommand, runConformanceCommand };
