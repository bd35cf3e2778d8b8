// Lets a child `node -r ./test/support/ts-register.js conformance/cli.ts` run the TypeScript sources
// directly (transpile only, no type check), so the CLI test needs no build step. Each file's output is kept on
// disk by its content, so the many children a suite spawns transpile each source once, not once per child.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

const CACHE = path.join(os.tmpdir(), `petstore-ts-register-${ts.version}`);
fs.mkdirSync(CACHE, { recursive: true });

function transpile(source, filename) {
  const key = crypto.createHash('sha1').update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(CACHE, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const { outputText } = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  // Written whole, then renamed: a child reading at the same moment sees the old state or the new, never half.
  const partial = `${cached}.${process.pid}.tmp`;
  fs.writeFileSync(partial, outputText);
  fs.renameSync(partial, cached);
  return outputText;
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);
};
