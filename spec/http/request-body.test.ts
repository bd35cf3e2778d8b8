import {
  bodyMediaProblem,
  bodyRefusalStatus,
  decodeJsonBody,
  parseMediaType,
  unexpectedBodyProblem,
  type BodyRule,
} from './request-body';

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

const NO_TYPES: BodyRule = { kind: 'other', mediaTypes: [], required: true };
const ANY_TYPE: BodyRule = { kind: 'other', mediaTypes: ['*/*'], required: true };
const TEXT_ONLY: BodyRule = { kind: 'other', mediaTypes: ['text/plain'], required: true };

describe('bodyMediaProblem', () => {
  it.each<[string, BodyRule, string, string]>([
    ['content: {} takes JSON', NO_TYPES, 'application/json', 'json'],
    ['*/* takes JSON as JSON', ANY_TYPE, 'application/json; charset=UTF-8', 'json'],
    ['a vendor +json where JSON is documented', JSON_BODY, 'application/vnd.acme.v3+json', 'json'],
    ['case and parameters are not the type', JSON_BODY, 'Application/JSON; Charset="utf-8"', 'json'],
    [
      'a documented form type with parameters',
      { ...FORM_BODY, mediaTypes: ['application/x-www-form-urlencoded; charset=utf-8'] },
      'application/x-www-form-urlencoded',
      'form',
    ],
  ])('%s', (_, rule, type, reading) => {
    expect(decide(rule, type)).toBe(reading);
  });

  it('never names the type it refuses as the one to send', () => {
    for (const [rule, type] of [
      [TEXT_ONLY, 'application/json'],
      [NO_TYPES, 'text/plain'],
      [FORM_BODY, 'application/json'],
    ] as const) {
      const p = decide(rule, type);
      expect(p).toMatchObject({ status: 415 });
      const message = typeof p === 'string' ? '' : p.message;
      expect(message.split(', got ')[0]).not.toContain(type);
    }
  });

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

  it('refuses a body sent where the operation documents none with 415, unless configured to ignore it', () => {
    for (const type of ['text/plain', 'application/json']) {
      expect(decide(undefined, type)).toMatchObject({
        rule: 'request.media-type',
        status: 415,
        pointer: '/header/content-type',
        message: expect.stringMatching(/documents no request body/),
      });
      expect(
        bodyMediaProblem(undefined, WITH_400, type, parseMediaType(type), false, {
          unexpectedBody: 'ignore',
        }),
      ).toBe('none');
    }
  });

  it('reads no body where none is documented and none came (GET, DELETE, HEAD, Content-Length: 0)', () => {
    expect(decide(undefined, undefined, true)).toBe('none');
    // A Content-Type without bytes (Content-Length: 0) and bytes without a Content-Type are not refused.
    expect(decide(undefined, 'application/json', true)).toBe('none');
    expect(decide(undefined, undefined, false)).toBe('none');
    expect(unexpectedBodyProblem('application/json', true)).toBeUndefined();
  });
});

describe('bodyRefusalStatus', () => {
  it.each([
    [['400'], 400],
    [['422'], 422],
    [['400', '422'], 400],
    // A range or default documents 400, the interface's status for a bad body (§4, §7): 400, not 422.
    [['4XX', '422'], 400],
    [['default', '422'], 400],
    [['404'], 400],
  ])('with %j documented: %i', (statuses, expected) => {
    expect(bodyRefusalStatus(new Map(statuses.map((s) => [s, {}])))).toBe(expected);
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
