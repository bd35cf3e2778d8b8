import { bodyMediaProblem, decodeJsonBody, parseMediaType, type BodyRule } from './request-body';

const JSON_BODY: BodyRule = { kind: 'json', mediaTypes: ['application/json'], required: true };
const OPTIONAL: BodyRule = { ...JSON_BODY, required: false };
const FORM_BODY: BodyRule = {
  kind: 'form',
  mediaTypes: ['application/x-www-form-urlencoded'],
  required: true,
};
const UPLOAD: BodyRule = { kind: 'other', mediaTypes: ['image/*'], required: true };
const WITH_400 = new Map([['400', {}]]);
const ONLY_422 = new Map([['422', {}]]);

const decide = (rule: BodyRule | undefined, type: string | undefined, empty = false, responses = WITH_400) =>
  bodyMediaProblem(rule, responses, type, parseMediaType(type ?? ''), empty);

describe('bodyMediaProblem', () => {
  it('reads a documented JSON, form or opaque body as such', () => {
    expect(decide(JSON_BODY, 'application/json')).toBe('json');
    expect(decide(JSON_BODY, 'application/json; charset=utf-8')).toBe('json');
    expect(decide(FORM_BODY, 'application/x-www-form-urlencoded')).toBe('form');
    expect(decide(UPLOAD, 'image/png')).toBe('opaque');
  });

  it('refuses a Content-Type the operation does not document with 415', () => {
    for (const [rule, type] of [
      [JSON_BODY, 'text/plain'],
      [JSON_BODY, undefined],
      [FORM_BODY, 'application/json'],
      [UPLOAD, 'application/pdf'],
      [JSON_BODY, 'application/json; charset=latin1'],
    ] as const) {
      const p = decide(rule, type, false);
      expect([type, p]).toEqual([type, expect.objectContaining({ rule: 'request.media-type', status: 415 })]);
    }
    // Even without body bytes, a wrong declared type is the media-type refusal.
    expect(decide(JSON_BODY, 'text/plain', true)).toMatchObject({ status: 415 });
  });

  it('refuses a missing required body with 400, or the status the operation documents instead', () => {
    expect(decide(JSON_BODY, undefined, true)).toMatchObject({ rule: 'request.body', status: 400 });
    expect(decide(JSON_BODY, 'application/json', true)).toMatchObject({ rule: 'request.body', status: 400 });
    expect(decide(JSON_BODY, undefined, true, ONLY_422)).toMatchObject({ status: 422 });
    expect(decide(OPTIONAL, undefined, true)).toBe('none');
  });

  it('reads no body where the operation documents none (ignored, whatever its type)', () => {
    expect(decide(undefined, 'text/plain')).toBe('none');
  });
});

describe('decodeJsonBody', () => {
  it('decodes JSON and refuses text that is not JSON with 400 (or the documented alternative)', () => {
    expect(decodeJsonBody(WITH_400, '{"a":1}')).toEqual({ value: { a: 1 } });
    expect(decodeJsonBody(WITH_400, '{"a":')).toMatchObject({
      rule: 'request.body',
      status: 400,
      pointer: '/body',
      message: expect.stringMatching(/^request body is not valid JSON: /),
    });
    expect(decodeJsonBody(ONLY_422, 'nope')).toMatchObject({ status: 422 });
  });
});
