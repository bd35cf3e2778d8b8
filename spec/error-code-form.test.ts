import { codeInForm } from './error-code-form';

describe('codeInForm: the mock code in the form of the document', () => {
  it('takes the enum value that says the code', () => {
    const allowed = ['InvalidInput', 'ResourceNotFound', 'Unauthorized'];
    expect(codeInForm('not_found', 404, { allowed })).toBe('ResourceNotFound');
    expect(codeInForm('unauthorized', 401, { allowed })).toBe('Unauthorized');
  });

  it("takes the value that says the status's class where no value says the code (issue 38)", () => {
    // A payments API's error `type`: SDKs pick their error class by it.
    const allowed = ['api_error', 'card_error', 'idempotency_error', 'invalid_request_error'];
    expect(codeInForm('not_found', 404, { allowed })).toBe('invalid_request_error');
    expect(codeInForm('unauthorized', 401, { allowed })).toBe('invalid_request_error');
    expect(codeInForm('internal_error', 500, { allowed })).toBe('api_error');
    expect(codeInForm('service_unavailable', 503, { allowed })).toBe('api_error');
  });

  it('keeps the first value, or none where strict, when nothing says the code or its class', () => {
    expect(codeInForm('not_found', 404, { allowed: ['success', 'fail'] })).toBe('success');
    expect(codeInForm('not_found', 404, { allowed: ['success', 'fail'], strict: true })).toBeUndefined();
  });
});
