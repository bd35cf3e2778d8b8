import { harWriter, toHar } from './har';
import type { Exchange } from './types';

const exchanges: Exchange[] = [
  {
    request: {
      method: 'POST',
      url: 'http://t.test/v1/items?x=1',
      headers: { 'content-type': 'application/json' },
      body: '{"a":"\\n"}',
    },
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1}' },
    responseText: '{"id":1,\n "text": "two\\nlines"}',
    operationId: 'createItem',
    sentAt: 1_700_000_000_000,
    receivedAt: 1_700_000_000_012,
  },
  {
    request: { method: 'GET', url: 'http://t.test/v1/items', headers: {} },
    error: 'ECONNRESET',
    receivedAt: 1_700_000_000_100,
  },
];

const streamed = (list: readonly Exchange[]): { text: string; count: number } => {
  let text = '';
  const writer = harWriter('1.2.3', (piece) => (text += piece));
  for (const e of list) writer.add(e);
  return { count: writer.end(), text };
};

it('writes, piece by piece, exactly the text of the whole document', () => {
  for (const list of [[], exchanges.slice(0, 1), exchanges]) {
    const { text, count } = streamed(list);
    expect(text).toBe(JSON.stringify(toHar(list, '1.2.3'), null, 2));
    expect(count).toBe(list.length);
  }
});

it('refuses an entry after the end', () => {
  const writer = harWriter('1', () => undefined);
  writer.end();
  expect(() => writer.add(exchanges[0] as Exchange)).toThrow(/after end/);
});
