/** The spec's served forms keep only their bytes: never the text, which a RegExp would keep alive (issue 30). */
import { buildSpecDocuments } from './documents';

it('serves a JSON document as written and YAML as JSON, with this mock first among the servers', () => {
  const json = buildSpecDocuments('  {"openapi":"3.1.0","servers":[{"url":"https://x.example"}]}', '/v1');
  expect(json.json.toString()).toBe('  {"openapi":"3.1.0","servers":[{"url":"https://x.example"}]}');
  expect(JSON.parse(json.docsJson.toString()).servers.map((s: { url: string }) => s.url)).toEqual([
    '/v1',
    'https://x.example',
  ]);
  const yaml = buildSpecDocuments('openapi: 3.1.0\n', '');
  expect(JSON.parse(yaml.json.toString())).toEqual({ openapi: '3.1.0' });
});

it('leaves no RegExp holding the text (V8 keeps the last input a RegExp matched)', () => {
  const text = `{"openapi":"3.1.0","x-big":"${'a'.repeat(64)}"}`;
  buildSpecDocuments(text, '');
  /x/.test('reset');
  buildSpecDocuments(text, '');
  expect((RegExp as unknown as { input: string }).input).not.toBe(text);
});
