// jest's transform for the packages that ship ES modules only (jest.config.js ESM_ONLY): ts-jest compiles them to
// CommonJS, after `import.meta.url` (which CommonJS has no syntax for; MSW 3's interceptors read their WASM parser
// next to themselves with it) is replaced by the file's own URL.
const tsJest = require('ts-jest').default;

const IMPORT_META_URL = /\bimport\.meta\.url\b/g;
const FILE_URL = 'require("node:url").pathToFileURL(__filename).href';
const rewrite = (source) => source.replace(IMPORT_META_URL, FILE_URL);

module.exports = {
  createTransformer(options) {
    const inner = tsJest.createTransformer(options);
    return {
      canInstrument: inner.canInstrument,
      process: (source, file, opts) => inner.process(rewrite(source), file, opts),
      getCacheKey: (source, file, opts) => inner.getCacheKey(rewrite(source), file, opts),
    };
  },
};
