/** An example engine answers an already-routed, authorised, validated request whose payload is not published. */
import type { OperationSpec } from '../../../spec/compile';

export interface EngineAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface EngineRequest {
  method: string;
  /** The path below the base path (`/pets/1`), still percent-encoded. */
  path: string;
  operation: OperationSpec;
  /** Status asked for with `Prefer: code=NNN`. */
  preferStatus?: number;
}

export type ExampleEngine = (request: EngineRequest) => Promise<EngineAnswer | { error: string }>;
