/**
 * The real-server kit's servers: products we did not write, each serving (or shipping) its own API's document.
 * Where each comes from (an npm package, or a service folder of the EMB corpus used by published fuzzing studies),
 * how it starts, and where its document is. Nothing of theirs is committed: install.ts fetches them at run time.
 */

/** One server of the kit. */
export interface RealServer {
  name: string;
  /** An npm package spec, or a folder of EMB's `js_npm/rest/` (needs EMB_DIR: a checkout or its git directory). */
  source: { npm: string } | { emb: string };
  /** What it needs besides Node (a Debian package's server started by the kit). */
  needs?: 'redis';
  /** The file (relative to the installed folder) that starts it; it listens on env PORT. */
  main: string;
  /** Its document: a path the server serves, or a file it ships. */
  document: { served: string } | { file: string };
  /** The base path its document's operations live under (the runner's --target is the origin plus this). */
  base: string;
  /** Published figures about it, for docs/real-servers.md (a study's name and what it reports). */
  study?: string;
}

export const SERVERS: readonly RealServer[] = [
  {
    name: 'loopback-todo',
    source: { npm: '@loopback/example-todo@6.0.0' },
    main: 'dist/index.js',
    document: { served: '/openapi.json' },
    base: '',
  },
  {
    name: 'ncs',
    source: { emb: 'ncs' },
    main: 'src/server.js',
    document: { file: 'src/swagger.json' },
    base: '',
  },
  {
    name: 'scs',
    source: { emb: 'scs' },
    main: 'src/server.js',
    document: { file: 'src/swagger.json' },
    base: '',
  },
  {
    name: 'disease-sh-api',
    source: { emb: 'disease-sh-api' },
    needs: 'redis',
    main: 'kit-start.js',
    document: { served: '/apidocs/swagger_v3.json' },
    base: '',
  },
  {
    name: 'loopback-file-transfer',
    source: { npm: '@loopback/example-file-transfer@1.7.0' },
    main: 'dist/index.js',
    document: { served: '/openapi.json' },
    base: '',
  },
];
