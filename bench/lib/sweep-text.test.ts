import { csvRows, textJudge } from './sweep-text';

const schema = {
  type: 'object',
  required: ['name', 'amount'],
  properties: { name: { type: 'string' }, amount: { type: 'integer' } },
};

describe('the second reader of text answers (issue 40)', () => {
  it('reads CSV fields as RFC 4180 writes them', () => {
    expect(csvRows('a,b\r\n"x, ""y""",2\n')).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
    ]);
  });

  it.each([
    ['application/csv', 'name,amount\r\nrent,3\r\n', []],
    ['application/csv', 'name\r\nrent\r\n', ['text reader: CSV header lacks amount']],
    ['text/plain', '{"name":"rent","amount":3}', []],
    ['text/plain', 'string', ['text reader: the body is neither JSON text nor CSV']],
    ['application/vnd.x', '{"name":"rent"}', ['text reader: the JSON text does not fit the schema']],
  ])('%s %j', (type, body, problems) => {
    expect(textJudge(body, type, schema)).toEqual(problems);
  });
});
