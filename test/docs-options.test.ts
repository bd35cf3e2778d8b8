/**
 * The option lists stay documented: every option the mock's `--help` names (the engine's, the shipped settings'
 * and the validation proxy's) is described on a page of docs/, and every option of the runner's `--help` on
 * docs/check-a-server.md, so a new flag cannot ship without its sentence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { helpText } from '../conformance/help';
import { HELP } from '../mock/node/help';
import { PROXY_HELP } from '../proxy/proxy-cli';

const DOCS = path.join(__dirname, '..', 'docs');
const read = (page: string) => fs.readFileSync(path.join(DOCS, page), 'utf8');
const allDocs = fs
  .readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .map(read)
  .join('\n');

/** The long options a help text lists, each once (`--seed FILE | --no-seed` gives both). */
const optionsOf = (help: string) => [
  ...new Set(
    [...help.matchAll(/^ {2}(-.*?)(?: {2,}|$)/gm)].flatMap((m) => m[1]?.match(/--[a-z][\w-]*/g) ?? []),
  ),
];

/** Options named in the help but in no backticked span of the text (`--port` or `--port N`). */
const undocumented = (options: string[], text: string) =>
  options.filter((o) => !new RegExp(`\`${o}(?![\\w-])`).test(text));

describe('option lists in the docs', () => {
  it('finds the options of both commands (the parser reads the help texts)', () => {
    expect(optionsOf(`${HELP}\n${PROXY_HELP}`)).toEqual(
      expect.arrayContaining(['--spec', '--no-seed', '--proxy']),
    );
    expect(optionsOf(helpText())).toEqual(expect.arrayContaining(['--target', '--min-coverage', '--help']));
  });

  it('every option of petstore-mock --help is described on a page of docs/', () => {
    expect(undocumented(optionsOf(`${HELP}\n${PROXY_HELP}`), allDocs)).toEqual([]);
  });

  it('every option of petstore-conformance --help is listed in docs/check-a-server.md', () => {
    expect(undocumented(optionsOf(helpText()), read('check-a-server.md'))).toEqual([]);
  });
});

/** The flags a table of the docs lists (a row starting with a backticked option), with the page they are on. */
const tableFlags = () =>
  fs
    .readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .flatMap((page) =>
      [...read(page).matchAll(/^\| `(--[a-z][\w-]*)/gm)].map((m) => ({ page, flag: m[1] as string })),
    );

describe('flag tables in step with --help', () => {
  it('finds the tables (the proxy options of docs/judge-traffic.md among them)', () => {
    expect(tableFlags().map((f) => f.flag)).toEqual(expect.arrayContaining(['--proxy-mode', '--drain-ms']));
  });

  it('every flag a table lists is an option of one of the two commands today', () => {
    const known = new Set([...optionsOf(`${HELP}\n${PROXY_HELP}`), ...optionsOf(helpText())]);
    expect(tableFlags().filter((f) => !known.has(f.flag))).toEqual([]);
  });
});
