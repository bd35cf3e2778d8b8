/** A documented status without an example is answered with a code of the catalogue, never a made-up one. */
import { ERROR_CODES } from '../../spec/error-codes';
import { codeForStatus } from './example-reply';

it.each([
  [429, 'rate_limited'],
  [404, 'not_found'],
  [503, 'service_unavailable'],
  [418, 'bad_request'],
  [599, 'internal_error'],
])('status %i is answered with code %s', (status, code) => {
  expect(codeForStatus(status)).toBe(code);
  expect(Object.keys(ERROR_CODES)).toContain(codeForStatus(status));
});
