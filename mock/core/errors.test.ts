import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, apiError, type ErrorCode } from './errors';

describe('the error catalogue', () => {
  it('is the table of error codes in docs/mock-errors-and-pipeline.md, row for row', () => {
    const readme = fs.readFileSync(
      path.join(__dirname, '..', '..', 'docs', 'mock-errors-and-pipeline.md'),
      'utf8',
    );
    const section = readme.slice(readme.indexOf('## Error codes'), readme.indexOf('## The request pipeline'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` +\| (\d{3}) +\|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(Object.entries(ERROR_CODES));
  });

  it.each(Object.keys(ERROR_CODES) as ErrorCode[])('%s builds an error value with its status', (code) => {
    const reply = apiError(code, 'why');
    expect(reply.error).toEqual({ code, message: 'why' });
    expect(reply.status).toBe(ERROR_CODES[code]);
  });
});
