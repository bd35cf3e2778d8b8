/**
 * OpenAI (`openai`, Stainless-generated): a multipart upload, a `{data: …}` list, JSON deletes that answer
 * `{deleted: true}`. The document (1.2.0) has files without an update, and declares no security scheme.
 * Workflow: a file uploaded, read back, listed, deleted (then 404), a missing file and a wrong key.
 */
import OpenAI, { toFile } from 'openai';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

interface Session {
  ai: OpenAI;
  wrong: OpenAI;
  target: Target;
  id?: string;
  filename?: string;
}

const client = (t: Target, apiKey: string) => new OpenAI({ apiKey, baseURL: t.base, maxRetries: 0 });

const created = (s: Session): string => {
  check(s.id, 'no file id: the upload did not return one');
  return s.id;
};

export const openai: ClientKit<Session> = {
  client: 'openai 6.30.1',
  document: 'openai.com.json',
  needs: "baseURL (the mock's base); any API key the keys file holds",
  keys: { key: 'sk-kit-0123456789abcdef0123456789', wrongKey: 'sk-wrong-0123456789abcdef012345' },
  open: async (target) => ({
    ai: client(target, target.key),
    wrong: client(target, target.wrongKey),
    target,
  }),
  steps: [
    {
      name: 'upload a file',
      run: async (s) => {
        s.filename = `${uniqueName('kit', s.target)}.jsonl`;
        const body = Buffer.from('{"prompt": "a", "completion": "b"}\n');
        const f = await s.ai.files.create({ file: await toFile(body, s.filename), purpose: 'fine-tune' });
        check(typeof f.id === 'string' && f.id.length > 0, 'the uploaded file has no id');
        s.id = f.id;
        same('filename', f.filename, s.filename);
        same('purpose', f.purpose, 'fine-tune');
        same('bytes', f.bytes, body.length);
      },
    },
    {
      name: 'read it back',
      run: async (s) => {
        const f = await s.ai.files.retrieve(created(s));
        same('id', f.id, s.id);
        same('filename', f.filename, s.filename);
      },
    },
    {
      name: 'list files',
      run: async (s) => {
        const page = await s.ai.files.list();
        const found = page.data.find((f) => f.id === created(s));
        check(found, `the list (${page.data.length} files) does not hold the uploaded one`);
        same('filename in the list', found.filename, s.filename);
      },
    },
    {
      name: 'delete it, then 404',
      run: async (s) => {
        const d = await s.ai.files.delete(created(s));
        same('deleted', d.deleted, true);
        same('id', d.id, s.id);
        await fails(
          () => s.ai.files.retrieve(created(s)),
          404,
          (e) => e instanceof OpenAI.NotFoundError,
        );
      },
    },
    {
      name: 'missing file is 404',
      run: (s) =>
        fails(
          () => s.ai.files.retrieve('file-kitMissing000000000'),
          404,
          (e) => e instanceof OpenAI.NotFoundError,
        ),
    },
    {
      name: 'wrong key is 401',
      requires: 'security',
      run: (s) =>
        fails(
          () => s.wrong.files.list(),
          401,
          (e) => e instanceof OpenAI.AuthenticationError,
        ),
    },
  ],
};
