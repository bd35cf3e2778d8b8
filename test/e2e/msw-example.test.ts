/**
 * examples/msw-browser in headless Chromium with no mock process: `npm run example:msw`'s own build and static
 * server, the page registers MSW 3's worker, and the engine in the page answers /v1/*: the seed list shows, a
 * create appears, a request without a key shows the 401 Error, spending the free key shows a 429, and MSW's own
 * `worker.resetHandlers()` (the page's Reset) puts the records and the counters back to the seed.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { buildExample, mswVersion, serveStatic, WORKER } from '../../scripts/lib/example-msw';
import { describeBrowser, launchBrowser, screenshot, type BrowserSession } from './browser';

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'example-msw.js');

// Plain Node, no browser: the command builds the example and serves it as static files on 127.0.0.1.
describe('npm run example:msw -- --port N', () => {
  it("builds the bundle and msw init's worker, then serves the folder on http://127.0.0.1:N/", async () => {
    const child = spawn(process.execPath, [SCRIPT, '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed:\n${out}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /serving examples\/msw-browser at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('src="./app.js"');
      const bundle = await fetch(`${url}app.js`);
      expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
      // The worker is MSW 3's own (installed as msw3), written by its CLI for the installed version.
      const worker = await (await fetch(`${url}mockServiceWorker.js`)).text();
      const { version } = JSON.parse(
        fs.readFileSync(path.join(ROOT, 'node_modules/msw3/package.json'), 'utf8'),
      ) as { version: string };
      expect(version).toMatch(/^3\./);
      expect(mswVersion()).toBe(version);
      expect(worker).toContain(`const PACKAGE_VERSION = '${version}'`);
      expect(worker).toBe(fs.readFileSync(WORKER, 'utf8'));
      // The page's msw (the example's and the entry's `msw` imports) is MSW 3 too, never msw 2.
      const map = JSON.parse(
        fs.readFileSync(`${WORKER.replace(/mockServiceWorker\.js$/, 'app.js.map')}`, 'utf8'),
      );
      const sources = (map as { sources: string[] }).sources;
      expect(
        sources.filter((file) => file.includes('node_modules/msw3/src/browser/')).length,
      ).toBeGreaterThan(0);
      expect(sources.filter((file) => file.includes('node_modules/msw/'))).toEqual([]);
      // Static files only: no API, nothing outside the folder.
      expect((await fetch(`${url}v1/categories`)).status).toBe(404);
      expect((await fetch(`${url}%2e%2e/package.json`)).status).toBe(404);
      expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);

  it('refuses a bad --port with exit code 2 and the usage', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--port', 'abc'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--port needs 0-65535');
    expect(r.stderr).toContain('usage: npm run example:msw');
  });
});

describeBrowser('examples/msw-browser in Chromium, without a mock server', () => {
  let server: Server;
  let origin: string;
  let browser: BrowserSession;
  const served: string[] = [];

  beforeAll(async () => {
    await buildExample();
    server = await serveStatic({ port: 0 });
    server.on('request', (req: { url?: string }) => served.push(req.url ?? ''));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('the static server has no API: /v1 is not found there', async () => {
    const res = await fetch(`${origin}/v1/categories`, { headers: { Authorization: 'Bearer pro-demo-key' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('the page starts the worker and lists the seed categories', async () => {
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // MSW warns in the console when the worker is not the one of the library in the page (its integrity check).
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${origin}/`);
    await page.locator('#status[data-ready="true"]').waitFor();
    await page.locator('#categories[aria-busy="false"]').waitFor();
    const items = await page.locator('#categories li').allTextContents();
    expect(items.map((text) => text.replace(/^\d+: /, '').split(' (')[0])).toEqual(['dog', 'cat', 'rabbit']);
    expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toBe(
      `${origin}/mockServiceWorker.js`,
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it('a created category appears in the list', async () => {
    const { page } = browser;
    await page.locator('#create input[name="name"]').fill('hamster');
    await page.locator('#create input[name="description"]').fill('Small rodents');
    await page.locator('#create button[type="submit"]').click();
    await page.locator('#categories li', { hasText: 'hamster' }).waitFor();
    await expect(page.locator('#create-result').textContent()).resolves.toMatch(/^HTTP 201/);
    const last = await page.locator('#categories li').last().textContent();
    expect(last).toMatch(/^\d+: hamster \(Small rodents\)$/);

    // An invalid create is refused with the engine's 400, and nothing is added.
    await page.locator('#create input[name="name"]').fill('x'.repeat(201));
    await page.locator('#create button[type="submit"]').click();
    await page.locator('#create-result', { hasText: 'HTTP 400' }).waitFor();
    await expect(page.locator('#create-result').textContent()).resolves.toContain(
      '"code": "invalid_request"',
    );
    expect(await page.locator('#categories li').count()).toBe(4);
  }, 60_000);

  it('a request without a key shows the 401 Error body', async () => {
    const { page } = browser;
    await page.locator('#no-key').click();
    const shown = page.locator('#no-key-result', { hasText: 'HTTP 401' });
    await shown.waitFor();
    const text = (await shown.textContent()) ?? '';
    expect(text).toMatch(/^WWW-Authenticate: Bearer/m);
    const body = JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
    expect(body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
  }, 60_000);

  it('spending the free key ends in a 429 with Retry-After', async () => {
    const { page } = browser;
    await page.locator('#spend').click();
    const result = page.locator('#spend-result[data-status]');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getAttribute('data-status')).toBe('429');
    const text = (await result.textContent()) ?? '';
    const retryAfter = Number(/^Retry-After: (\d+)$/m.exec(text)?.[1]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(text).toMatch(/^X-RateLimit-Remaining: 0$/m);
    expect(JSON.parse(text.slice(text.indexOf('{')))).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(/^after (\d+) requests/.exec(text)?.[1])).toBeGreaterThanOrEqual(61);
    await screenshot(page, 'msw-example');
  }, 90_000);

  it("MSW's worker.resetHandlers() (the page's Reset) puts the records and the free key's quota back", async () => {
    const { page } = browser;
    const freeRemaining = () =>
      page.evaluate(async () => {
        const res = await fetch('/v1/categories', { headers: { Authorization: 'Bearer free-demo-key' } });
        return [res.status, res.headers.get('x-ratelimit-remaining')];
      });
    expect(await page.locator('#categories li', { hasText: 'hamster' }).count()).toBe(1);
    expect((await freeRemaining())[0]).toBe(429);
    await page.locator('#reset').click();
    await expect(
      page.locator('#categories li', { hasText: 'hamster' }).waitFor({ state: 'detached' }),
    ).resolves.toBeUndefined();
    const items = await page.locator('#categories li').allTextContents();
    expect(items.map((text) => text.replace(/^\d+: /, '').split(' (')[0])).toEqual(['dog', 'cat', 'rabbit']);
    expect(await freeRemaining()).toEqual([200, '59']);
  }, 60_000);

  it("under a Content-Security-Policy without 'unsafe-eval' the engine cannot start (ajv compiles with new Function)", async () => {
    const strict = await serveStatic({
      port: 0,
      headers: { 'Content-Security-Policy': "script-src 'self'" },
    });
    const session = await launchBrowser();
    try {
      const { port } = strict.address() as AddressInfo;
      await session.page.goto(`http://127.0.0.1:${port}/`);
      const status = session.page.locator('#status', { hasText: 'Error' });
      await status.waitFor();
      expect(await status.textContent()).toMatch(/unsafe-eval|EvalError|Content Security Policy/i);
      expect(await session.page.locator('#categories li').count()).toBe(0);
    } finally {
      await session.close();
      await new Promise((resolve) => strict.close(resolve));
    }
  }, 60_000);

  it('no /v1 request ever reached the static server from the page: the worker answered them all', () => {
    const fromPage = served.filter((url) => url.startsWith('/v1'));
    // The one /v1 request the server saw is the test's own direct fetch above.
    expect(fromPage).toEqual(['/v1/categories']);
    expect(served).toEqual(expect.arrayContaining(['/', '/app.js', '/mockServiceWorker.js']));
  });
});

// The same page built on MSW 2 (`msw`) with MSW 2's worker: the entry runs on either major in a browser.
describeBrowser('examples/msw-browser built on MSW 2, in Chromium', () => {
  // Outside the repository (the linters read test-output/): a fresh build each run, removed after.
  let dir = '';
  let server: Server;
  let origin: string;
  let browser: BrowserSession;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'msw2-browser-'));
    await buildExample({ dir, msw: 'msw', force: true });
    server = await serveStatic({ dir, port: 0 });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the seed, creates, answers 401 without a key, and Reset (worker.resetHandlers()) brings the seed back', async () => {
    const worker = await (await fetch(`${origin}/mockServiceWorker.js`)).text();
    expect(worker).toContain(`const PACKAGE_VERSION = '${mswVersion('msw')}'`);
    expect(mswVersion('msw')).toMatch(/^2\./);
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.locator('#status[data-ready="true"]').waitFor();
    await page.locator('#categories[aria-busy="false"]').waitFor();
    const names = async () =>
      (await page.locator('#categories li').allTextContents()).map(
        (text) => text.replace(/^\d+: /, '').split(' (')[0],
      );
    expect(await names()).toEqual(['dog', 'cat', 'rabbit']);
    expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toBe(
      `${origin}/mockServiceWorker.js`,
    );
    await page.locator('#create input[name="name"]').fill('hamster');
    await page.locator('#create button[type="submit"]').click();
    await page.locator('#categories li', { hasText: 'hamster' }).waitFor();
    await page.locator('#no-key').click();
    await page.locator('#no-key-result', { hasText: 'HTTP 401' }).waitFor();
    await page.locator('#reset').click();
    await page.locator('#categories li', { hasText: 'hamster' }).waitFor({ state: 'detached' });
    expect(await names()).toEqual(['dog', 'cat', 'rabbit']);
    expect(errors).toEqual([]);
  }, 60_000);
});
