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

/** One answer of the sweep's plan, judged by our rules and, with JUDGE=prism, by Prism's. */
export interface SweepAnswer {
  operationId: string;
  method: string;
  path: string;
  status: number;
  /** Our response rules' problems (empty: it conforms). */
  problems: string[];
  /** With Prism's judge: its violations of the response (empty: it conforms by Prism). */
  prism?: string[];
  /** With Prism's judge: what it found wrong with our request (the plan's, counted apart). */
  prismRequest?: string[];
  /** Prism read this XML answer as text (its body violations left out: see sweep-prism.ts). */
  xmlUnread?: boolean;
  /** Prism read this text answer of an object schema as a string (see sweep-prism.ts). */
  textUnread?: boolean;
}
