/** Names the fuzz phase gives its rules and the data it sends. */
import type { OperationSpec } from '../../spec/load';

export type FuzzRuleKind = 'examples' | 'boundaries' | 'random' | 'no-trace' | 'chains' | 'response-time';

/** `fuzz.<operationId>.<phase>`: one test case per operation and phase. */
export const fuzzRuleId = (op: OperationSpec, kind: FuzzRuleKind): string => `fuzz.${op.operationId}.${kind}`;

/**
 * Every string a case generates starts with this (and the case's name), stable across runs: the same seed sends
 * the same bytes, and a refused body can be recognised in a list.
 */
export const CASE_PREFIX = 'fz';
