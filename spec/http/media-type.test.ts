import { compileSpec, type LoadedSpec } from '../load';
import type { Exchange } from '../report/types';
import { mediaMatches, mediaTypeProblem } from './media-type';
import { checkResponses } from './response-checks';

const spec = compileSpec(
  'doc.json',
  {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/certificate': {
        get: {
          operationId: 'certificate',
          responses: {
            '200': { description: 'a PDF', content: { 'application/pdf': { schema: { type: 'string' } } } },
          },
        },
      },
      '/feed': {
        get: {
          operationId: 'feed',
          responses: {
            '200': {
              description: 'RSS or JSON',
              content: { 'application/rss+xml': {}, 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
    },
  },
  false,
) as LoadedSpec;

const answer = (operationId: string, type: string | undefined, body: string, json?: unknown): Exchange => ({
  request: { method: 'GET', url: '/x', headers: {} },
  response: { status: 200, headers: type ? { 'content-type': type } : {}, body, json },
  operationId,
  receivedAt: Date.now(),
});
const judged = (ex: Exchange) =>
  checkResponses(spec, [ex]).find((f) => f.ruleId === 'response.json') ?? { outcome: 'none', problem: '' };

describe('response.json judges a non-JSON answer by its documented media type', () => {
  it('a documented PDF answered as a PDF passes (not "body is not JSON")', () => {
    expect(judged(answer('certificate', 'application/pdf', '%PDF-1.4 …'))).toMatchObject({ outcome: 'pass' });
  });

  it('a documented PDF answered with another type, no type or no body fails, naming the documented type', () => {
    expect(judged(answer('certificate', 'text/html', '<p>')).problem).toBe(
      'Content-Type is text/html, expected application/pdf',
    );
    expect(judged(answer('certificate', undefined, '%PDF')).problem).toMatch(
      /missing, expected application\/pdf/,
    );
    expect(judged(answer('certificate', 'application/pdf', '')).problem).toBe(
      'the application/pdf answer has no body',
    );
  });

  it('where JSON is documented beside XML, either passes, and broken JSON is still judged as JSON', () => {
    expect(judged(answer('feed', 'application/rss+xml; charset=utf-8', '<rss/>'))?.outcome).toBe('pass');
    expect(judged(answer('feed', 'application/json', '{}', {}))?.outcome).toBe('pass');
    expect(judged(answer('feed', 'application/json', '{', undefined)).problem).toBe('body is not JSON');
  });
});

describe('mediaTypeProblem and mediaMatches', () => {
  it('null (judge as JSON) where only JSON is documented', () => {
    expect(mediaTypeProblem({ mediaTypes: ['application/json'] }, { headers: {}, body: '' })).toBeNull();
  });
  it('ranges cover their types', () => {
    expect(mediaMatches('image/*', 'image/png')).toBe(true);
    expect(mediaMatches('*/*', 'text/csv')).toBe(true);
    expect(mediaMatches('text/*', 'application/xml')).toBe(false);
  });
});
