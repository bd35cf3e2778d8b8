import { curlOf } from './curl';

it('puts the key back as $CONFORMANCE_API_KEY, never the key, and quotes the body for the shell', () => {
  const curl = curlOf({
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/things?api_key=sec…(masked)',
    headers: { Authorization: 'Bearer sec…(masked)', 'Content-Type': 'application/json' },
    body: `{"name":"it's"}`,
  });
  expect(curl).toBe(
    `curl -sS -X POST "http://127.0.0.1:1/v1/things?api_key=$CONFORMANCE_API_KEY" ` +
      `-H "Authorization: Bearer $CONFORMANCE_API_KEY" -H 'Content-Type: application/json' ` +
      `--data-raw '{"name":"it'\\''s"}'`,
  );
  expect(curl).not.toMatch(/masked|sec…/);
});
