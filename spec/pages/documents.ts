/**
 * The spec as tools fetch it (`/openapi.yaml` byte for byte, `/openapi.json`), and the copy the reference page
 * renders, whose first server is this mock's own base path so "Try it out" calls the mock.
 */
import { readFile } from 'node:fs/promises';
import { parseYaml } from '../yaml-lazy';

export interface SpecDocuments {
  yaml: Buffer;
  json: Buffer;
  /** For the reference page only: servers start with the mock's relative base path (e.g. `/v1`). */
  docsJson: Buffer;
}

/**
 * Pure: the three documents from the spec file's bytes (or text); `basePath` is the mock's own (from the loaded spec).
 * The JSON forms are built on first use (parsing the YAML again costs start-up time the API does not need).
 */
export function buildSpecDocuments(text: string | Buffer, basePath: string): SpecDocuments {
  // The bytes are kept (served as written); the text is never kept, and no RegExp sees it (V8 keeps the last
  // string a RegExp matched, RegExp.input: 26 MB for GitHub's description).
  const raw = typeof text === 'string' ? Buffer.from(text) : text;
  // A JSON document (GitHub's is 13 MB) is served as written and read with JSON.parse, never the YAML parser.
  let first = 0;
  while (first < raw.length && [0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].includes(raw[first] ?? 0)) first++;
  const isJson = raw[first] === 0x7b; // `{`
  let parsed: Record<string, unknown> | undefined;
  const doc = (): Record<string, unknown> => {
    if (parsed) return parsed;
    const source = raw.toString('utf8');
    return (parsed = (isJson ? JSON.parse(source) : parseYaml(source)) as Record<string, unknown>);
  };
  let json: Buffer | undefined;
  let docsJson: Buffer | undefined;
  return {
    yaml: raw,
    get json() {
      return (json ??= isJson ? raw : Buffer.from(JSON.stringify(doc(), null, 2)));
    },
    get docsJson() {
      const servers = Array.isArray(doc().servers) ? (doc().servers as unknown[]) : [];
      const forDocs = {
        ...doc(),
        servers: [{ url: basePath, description: 'This mock server (Try it out calls it)' }, ...servers],
      };
      return (docsJson ??= Buffer.from(JSON.stringify(forDocs)));
    },
  };
}

/** Read the spec file and build its documents. Call only after loadSpec accepted the same file. */
export async function loadSpecDocuments(file: string, basePath: string): Promise<SpecDocuments> {
  return buildSpecDocuments(await readFile(file), basePath);
}
