/** Generated stream items differ: three events are three variants, each with its own id and a sensible retry. */
import path from 'node:path';
import { loadSpecOrThrow } from '../load';
import type { StreamSpec } from './stream-format';
import { readItems } from './stream-format';
import { streamChunks } from './streams';

const STREAMS = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'streams-32.yaml');

async function streamsOf(operationId: string): Promise<StreamSpec[]> {
  const spec = await loadSpecOrThrow(STREAMS);
  const op = spec.byId.get(operationId);
  return [...(op?.responses.values() ?? [])].flatMap((r) => r.streams ?? []);
}

it('three SSE events: different bodies, distinct ids, a retry a client can wait', async () => {
  const [sse] = await streamsOf('todoEvents');
  if (!sse) throw new Error('todoEvents has no stream');
  const chunks = streamChunks(sse, 3);
  expect(new Set(chunks).size).toBe(3);
  const ids = chunks.map((c) => /^id: (.*)$/m.exec(c)?.[1]);
  expect(new Set(ids).size).toBe(3);
  const data = chunks.map((c) => /^data: (.*)$/m.exec(c)?.[1]);
  expect(new Set(data).size).toBe(3);
  for (const c of chunks) expect(Number(/^retry: (\d+)$/m.exec(c)?.[1])).toBeGreaterThanOrEqual(1000);
});

it.each(['todoEvents', 'todoFeed', 'readLog'])(
  '%s: every generated item differs and still fits',
  async (id) => {
    for (const stream of await streamsOf(id)) {
      const body = streamChunks(stream, 5).join('');
      const items = readItems(stream.kind, body);
      expect(items).toHaveLength(5);
      expect(new Set(items.map((i) => JSON.stringify(i))).size).toBe(5);
    }
  },
);
