/**
 * Headless Chromium for the end-to-end tests: the Debian package at /usr/bin/chromium driven by playwright-core
 * (no browser download), a fresh profile per launch. Without the binary the browser tests skip with a loud
 * notice, except in CI (CI=true), where they fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-output', 'screenshots');
const DOCS_SHOTS = path.join(__dirname, '..', '..', 'docs', 'screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `describe` when the browser can run (or must, in CI); otherwise `describe.skip` after a loud notice. */
export function describeBrowser(name: string, body: () => void): void {
  if (fs.existsSync(CHROMIUM) || process.env.CI === 'true') {
    describe(name, body);
    return;
  }
  process.stderr.write(
    `\n!!! ${CHROMIUM} is missing: SKIPPING the browser tests "${name}". ` +
      'Install it with: apt-get install -y chromium (or source .ci/browser.sh)\n\n',
  );
  describe.skip(name, body);
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Launch Chromium with a fresh user-data-dir and one page. */
export async function launchBrowser(): Promise<BrowserSession> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1100, height: 760 },
    timeout: 30_000,
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Save a screenshot to test-output/screenshots (kept by CI); with UPDATE_SCREENSHOTS=1 also to
 * docs/screenshots for the README, so an ordinary run never changes tracked files.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    fs.mkdirSync(DOCS_SHOTS, { recursive: true });
    fs.copyFileSync(file, path.join(DOCS_SHOTS, `${name}.png`));
  }
}
