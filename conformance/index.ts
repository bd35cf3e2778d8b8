/** The conformance runner as a library: `runConformance(options)` returns the report object. */
export {
  runConformance,
  runConformanceDetailed,
  ConformanceError,
  DEFAULT_SCENARIOS_DIR,
  type DetailedRun,
} from './run';
export { RULES } from './rules';
export { formatReport, REPORTERS, type ReporterName } from '../spec/report';
export { toHar, type Har, type HarEntry } from '../spec/report/har';
export type {
  Cleanup,
  ConformanceOptions,
  CoverageEntry,
  Evidence,
  FetchLike,
  Leftover,
  ProgressEvent,
  Report,
  Rule,
  RuleKind,
  RuleResult,
  RuleStatus,
} from './types';
