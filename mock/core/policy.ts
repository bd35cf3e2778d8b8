/**
 * The mock's own rules for what §2 leaves unpublished (unknown fields, empty name, lengths), as a JSON Schema
 * compiled once from the config. It runs after the contract's validator, so contract messages come first.
 */
import type { ValidateFunction } from 'ajv';
import { sharedAjv } from '../../spec/ajv';
import type { ValidationPolicy } from '../node/config';

/** Compile the NewCategory policy schema for `policy`. */
export function compilePolicy(policy: ValidationPolicy): ValidateFunction {
  const stringRule = (min: number, max: number) => ({
    type: 'string',
    ...(min > 0 ? { minLength: min } : {}),
    ...(max > 0 ? { maxLength: max } : {}),
  });
  const schema = {
    type: 'object',
    properties: {
      name: stringRule(policy.allowEmptyName ? 0 : 1, policy.maxNameLength),
      description: stringRule(0, policy.maxDescriptionLength),
    },
    ...(policy.allowUnknownFields ? {} : { additionalProperties: false }),
  };
  return sharedAjv().compile(schema);
}
