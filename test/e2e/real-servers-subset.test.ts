/**
 * Issue 39: one server of the real-server kit in every `npm test`: LoopBack's todo example (npm
 * `@loopback/example-todo`, installed once into node_modules/.cache/real-servers, never committed; it needs
 * nothing but npm), started, checked by the runner as `npm run real-servers` checks it (`--fuzz --scenarios
 * none`, then the defaults) and scored against its hand-checked list: every real deviation found, no false
 * verdict, every operation called. Skipped with a notice only when the registry cannot be reached outside CI.
 */
import { checkServer } from '../../kits/real-servers/check';
import { installServer } from '../../kits/real-servers/install';
import { SERVERS } from '../../kits/real-servers/servers';

const server = SERVERS.find((s) => s.name === 'loopback-todo');
if (!server) throw new Error('kits/real-servers/servers.ts lost loopback-todo');

const installed = installServer(server);
if ('skip' in installed) {
  if (process.env.CI === 'true') throw new Error(installed.skip);
  process.stderr.write(`\n!!! ${installed.skip}: SKIPPING ${__filename}\n`);
}
const run = 'skip' in installed ? describe.skip : describe;

run('the real-server kit on loopback-todo', () => {
  it('finds every deviation of its hand-checked list, with no false verdict, calling every operation', async () => {
    const checked = await checkServer(server, { fuzzTimeS: 10 });
    if (!('score' in checked)) throw new Error(`skipped: ${checked.skip}`);
    const { score } = checked;
    const falseVerdicts = score.falseVerdicts.map((f) => `${f.rule} ${f.method} ${f.path} -> ${f.status}`);
    expect({ missed: score.missed, falseVerdicts }).toEqual({ missed: [], falseVerdicts: [] });
    expect(score.operations.called).toBe(score.operations.total);
  }, 120_000);
});
