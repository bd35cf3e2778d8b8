/** The conformance runner as a library: `runConformance(options)` returns the report object. */
export { runConformance, ConformanceError, DEFAULT_SCENARIOS_DIR } from './run';
export { RULES } from './rules';
export { formatReport, REPORTERS, type ReporterName } from './report';
export type {
  ConformanceOptions,
  CoverageEntry,
  Evidence,
  ProgressEvent,
  Report,
  Rule,
  RuleKind,
  RuleResult,
  RuleStatus,
} from './types';
