/**
 * The YAML parser, loaded on its first use (issue 40): a JSON document, as most public ones are, and a mock
 * with no YAML settings never need its 70 modules, about 5 MB of the memory at start.
 */
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

export function parseYaml(text: string): unknown {
  // A require, not an import: the load is deferred to the first YAML text, and stays synchronous for callers.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  yaml ??= require('yaml') as typeof Yaml;
  return yaml.parse(text);
}
