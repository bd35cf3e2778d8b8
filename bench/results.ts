/** What one `npm run bench` measures: bench/index.ts fills it, bench/report.ts prints it, latest.json keeps it. */
import type { FetchAdapterResult } from './fetch-adapter';
import type { Goal } from './goals';
import type { GrowthResult } from './growth';
import type { LargeResult } from './large-report';
import type { LoadResult } from './lib/load';
import type { ProxyResult } from './proxy-report';
import type { StartupResult } from './startup';
import type { TargetName } from './workloads';

export interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  startupRuns: number;
  growthSizes: number[];
  large: boolean;
  proxy: boolean;
  prism: boolean;
  logs: boolean;
  cpuProf: boolean;
}

export interface CellResult {
  runs: LoadResult[];
  rps: number;
  p50: number;
  p99: number;
  peakRss: number;
  statuses: Record<string, number>;
}

export interface WorkloadResult {
  title: string;
  ours: TargetName;
  expect: number;
  targets: Partial<Record<TargetName, CellResult>>;
}

export interface BenchResult {
  startedAt: string;
  durationS: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    platform: string;
    loadStart: number[];
    loadEnd: number[];
  };
  settings: Settings;
  startup: StartupResult;
  workloads: Partial<Record<string, WorkloadResult>>;
  skipped: Partial<Record<string, string>>;
  peakRssOverall: Partial<Record<TargetName, number>>;
  conformance: { ms: number; pass: number; fail: number; skip: number };
  /** createFetchHandler called in-process, one request at a time. */
  fetchAdapter: FetchAdapterResult;
  growth: GrowthResult[];
  /** Issue 22: GitHub's description side by side with Prism, and the generated family; null with --skip-large. */
  large: LargeResult | null;
  /** Issue 23: the validation proxy against a bare pass-through and Prism's proxy; null with --skip-proxy. */
  proxy: ProxyResult | null;
  goals: Goal[];
}
