/**
 * The one place the sweep asks "does this answer say what the document says": today the runner's response rules
 * (spec/http/response-checks.ts); repoint this function when those move into the shared judge.
 */
import type { LoadedSpec } from '../../spec/load';
import { checkResponses } from '../../spec/http/response-checks';
import type { Exchange } from '../../spec/report/types';

/** Each problem the response rules find in one exchange (empty: it conforms). */
export function judgeAnswer(spec: LoadedSpec, exchange: Exchange): string[] {
  return checkResponses(spec, [exchange]).flatMap((f) =>
    f.outcome === 'fail' ? [`${f.ruleId}: ${f.problem ?? ''}`] : [],
  );
}
