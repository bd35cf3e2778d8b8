import {
  refusalText,
  judgeSummary,
  prismProblems,
  prismVerdict,
  readAsText,
  textUnread,
  violationClass,
  xmlUnread,
} from './sweep-prism';
import type { SweepAnswer } from './sweep-judge';

const violations = (...v: object[]) => ({ 'sl-violations': JSON.stringify(v) });
const problem = (type: string, status: number) =>
  JSON.stringify({ type: `https://stoplight.io/prism/errors#${type}`, title: 't', status, detail: 'd' });

describe("Prism's verdict on one answer", () => {
  it('reads the response violations of its header, and the request ones apart', () => {
    const v = prismVerdict(
      violations(
        { location: ['response', 'body', 'id'], severity: 'Error', message: 'must be string' },
        { location: ['request', 'query', 'x'], severity: 'Warning', message: 'unknown' },
      ),
      '{}',
    );
    expect(v.response).toEqual(['Error response.body.id must be string']);
    expect(v.request).toEqual(['Warning request.query.x unknown']);
    expect(prismProblems(v, 200)).toEqual(['Error response.body.id must be string']);
  });

  it('counts an answer Prism made itself for a bad response (--errors) against ours', () => {
    const v = prismVerdict({}, problem('VIOLATIONS', 500));
    expect(v.selfAnswered).toBe(true);
    expect(prismProblems(v, 500)).toHaveLength(1);
  });

  it('judges nothing when Prism refused our request (422, 401): the request is the plan’s', () => {
    for (const [type, status] of [
      ['UNPROCESSABLE_ENTITY', 422],
      ['UNAUTHORIZED', 401],
    ] as const) {
      const v = prismVerdict({}, problem(type, status));
      expect(prismProblems(v, 400)).toBeUndefined();
      expect(v.request).toHaveLength(1);
    }
  });

  it('calls ours refusing a request Prism accepted a violation, with our reason', () => {
    const body = '{"code":"bad","message":"/request_body is not allowed"}';
    const v = prismVerdict({}, body);
    expect(prismProblems(v, 400, body)).toEqual([
      'refused a request Prism accepts (400): /request_body is not allowed',
    ]);
    expect(prismProblems(v, 404, body)).toEqual([]);
    // An operation that documents only errors has no success to give: its documented 400 refuses nothing.
    expect(prismProblems(v, 400, body, 'application/json', false)).toEqual([]);
  });
});

describe('an XML answer, which Prism reads as text', () => {
  const body = violations({
    location: ['response', 'body'],
    severity: 'Error',
    message: 'Response body must be object',
  });
  it('leaves out the body violations Prism finds in the text, and its own answer for them', () => {
    const v = prismVerdict(body, problem('VIOLATIONS', 500));
    expect(prismProblems(v, 200, '', 'text/xml')).toEqual([]);
    expect(xmlUnread(v.response, 'text/xml')).toBe(true);
  });
  it('keeps them for a JSON answer, and keeps other violations of an XML one', () => {
    expect(prismProblems(prismVerdict(body, ''), 200, '', 'application/json')).toHaveLength(1);
    const header = violations({
      location: ['response', 'headers', 'x'],
      severity: 'Error',
      message: 'missing',
    });
    expect(prismProblems(prismVerdict(header, ''), 200, '', 'application/xml')).toHaveLength(1);
  });
});

describe('a text answer of an object schema, which Prism reads as a string', () => {
  const body = violations({
    location: ['response', 'body'],
    severity: 'Error',
    message: 'Response body must be object',
  });
  it('leaves out only the type of the whole body, for types Prism does not read as JSON', () => {
    const v = prismVerdict(body, problem('VIOLATIONS', 500));
    for (const type of ['text/plain', 'application/vnd.wupdater.apiversion', 'application/csv'])
      expect([prismProblems(v, 200, '', type), textUnread(v.response, type)]).toEqual([[], true]);
    expect(prismProblems(v, 200, '', 'application/vnd.x+json')).toHaveLength(2);
    expect(textUnread(v.response, 'application/json; charset=utf-8')).toBe(false);
  });
  it("keeps a string schema's verdict on text", () => {
    const pattern = violations({
      location: ['response', 'body'],
      severity: 'Error',
      message: 'Response body must match pattern "^a$"',
    });
    expect(prismProblems(prismVerdict(pattern, ''), 200, '', 'text/plain')).toHaveLength(1);
  });
  it('reads JSON as Prism does', () => {
    expect(['application/json', 'application/problem+json', 'text/json', ''].map(readAsText)).toEqual([
      false,
      false,
      true,
      false,
    ]);
  });
});

describe('violation classes and the summary', () => {
  it('blurs names and numbers so one kind of mistake is one class', () => {
    expect(violationClass("Error response.body.items.3.id must match format 'byte'")).toBe(
      "Error response.… must match format '…'",
    );
    expect(violationClass(`Prism answered itself: ${problem('VIOLATIONS', 500)}`)).toBe('Prism VIOLATIONS');
  });

  it('counts judged answers, those conforming, and documents fully conforming', () => {
    const a = (prism?: string[], problems: string[] = []): SweepAnswer => ({
      operationId: 'o',
      method: 'get',
      path: '/x',
      status: 200,
      problems,
      prism,
    });
    const s = judgeSummary([
      { document: 'a.json', answers: [a([]), a(['Error response.body x'])] },
      { document: 'b.json', answers: [a([], ['ours']), a(undefined)] },
    ]);
    expect(s).toMatchObject({ judged: 3, prismConforming: 2, bothConforming: 1 });
    expect(s).toMatchObject({ documentsJudged: 2, documentsConforming: 1 });
    expect(s.classes).toEqual([{ violation: 'Error response.… x', answers: 1, documents: ['a.json'] }]);
  });
});

describe('what a refusal says', () => {
  it('reads a problem’s detail where there is no message (a 400 was listed with an empty reason)', () => {
    const body =
      '{"type":"about:blank","title":"Bad Request","status":400,"detail":"query parameter X must be object"}';
    expect(refusalText(body)).toBe('query parameter X must be object');
    expect(refusalText('{"code":"x","message":"m"}')).toBe('m');
    expect(refusalText('')).toBe('(no message)');
  });
});
