/** Which example engine answers the operations with unpublished payloads (`--example-engine`). */
import { createLazyPrismEngine } from './prism-engine';
import { specExampleEngine } from '../../core/engines/spec-examples';
import type { ExampleEngine } from '../../core/engines/types';

export type { ExampleEngine } from '../../core/engines/types';

/** `spec` (default): the loaded spec's examples; `prism`: @stoplight/prism-http, loaded on first use. */
export function createExampleEngine(kind: 'spec' | 'prism', specPath: string): ExampleEngine {
  return kind === 'prism' ? createLazyPrismEngine(specPath) : specExampleEngine;
}
