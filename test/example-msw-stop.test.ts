/**
 * `npm run example:msw`: stopping npm stops the server. npm's `sh -c` dies on SIGTERM and passes nothing on; the
 * script notices its parent gone and closes, so no server is left behind on the port.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');

it('the server stops when the shell that started it is killed', async () => {
  const shell = spawn('sh', ['-c', `node ${path.join(ROOT, 'scripts', 'example-msw.js')} --port 0; true`], {
    cwd: ROOT,
  });
  let out = '';
  shell.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not serving: ${out}`)), 60_000);
    shell.stdout.on('data', () => {
      const m = /serving examples\/msw-browser at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  expect((await fetch(url)).status).toBe(200);
  shell.kill('SIGKILL'); // the shell gone at once, as when npm's shell dies
  let up = true;
  for (let i = 0; i < 40 && up; i++) {
    await new Promise((r) => setTimeout(r, 100));
    up = await fetch(url).then(
      () => true,
      () => false,
    );
  }
  expect(up).toBe(false);
}, 90_000);
