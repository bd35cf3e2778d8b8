/** Types derived from spec/openapi.yaml through the generated file; nothing here is written by hand. */
import type { components, operations } from './generated/openapi';

export type Schemas = components['schemas'];
export type Category = Schemas['Category'];
export type NewCategory = Schemas['NewCategory'];
export type ApiError = Schemas['Error'];
export type OperationId = keyof operations;
