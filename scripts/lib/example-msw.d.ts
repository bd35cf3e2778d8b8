// Types of scripts/lib/example-msw.js for the TypeScript tests.
import type { Server } from 'node:http';

export const EXAMPLE_DIR: string;
export const BUNDLE: string;
export const WORKER: string;
/** The package the example's `msw` imports resolve to (`msw3`: MSW 3). */
export const MSW_PACKAGE: string;
/** The version of that package (or of `msw`), as its worker states it. */
export function mswVersion(msw?: string): string;
export interface BuildResult {
  built: boolean;
  bytes: number;
  gzipBytes: number;
}
export function buildExample(options?: {
  force?: boolean;
  log?: (line: string) => void;
  /** Where the page is built (default examples/msw-browser); elsewhere, index.html is copied there. */
  dir?: string;
  /** The package `msw` resolves to (default `msw3`; `msw` is MSW 2). */
  msw?: string;
}): Promise<BuildResult>;
export function bundleSize(dir?: string): { bytes: number; gzipBytes: number };
export function isStale(options?: { dir?: string; msw?: string }): boolean;
export function serveStatic(options?: {
  dir?: string;
  port?: number;
  host?: string;
  headers?: Record<string, string>;
}): Promise<Server>;
