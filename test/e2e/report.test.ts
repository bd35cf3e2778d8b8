/**
 * The runner's HTML report in a real browser: a run against a deliberately broken server shows the failing
 * rule, expands its evidence (key masked), and filters by status and kind. Opened from a file, as from a CI
 * artifact: everything it needs is inside the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runConformance } from '../../conformance';
import { formatReport } from '../../spec/report';
import { startReferenceServer, type RunningServer } from '../support/reference-server';
import type { Report } from '../../conformance/types';
import { describeBrowser, launchBrowser, screenshot, SCREENSHOTS, type BrowserSession } from './browser';

describeBrowser('the HTML conformance report in Chromium', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let report: Report;
  const file = path.join(SCREENSHOTS, '..', 'conformance-report.html');

  beforeAll(async () => {
    server = await startReferenceServer({ fault: 'wrong-status' });
    report = await runConformance({ target: server.url, key: 'good-key', seed: 42, timeoutMs: 5000 });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, formatReport(report, 'html', { seed: 42 }));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the failing rule and expands its evidence, with the key masked', async () => {
    const { page } = browser;
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) external.push(r.url());
    });
    await page.goto(`file://${file}`);
    expect(await page.locator('#summary').getAttribute('aria-label')).toBe(
      `${report.summary.pass} passed, ${report.summary.fail} failed, ${report.summary.skip} skipped`,
    );
    const rule = page.locator('tbody.rule[data-id="categories.create-201"]');
    await expect(rule.getAttribute('data-status')).resolves.toBe('fail');
    const evidence = rule.locator('tr.evidence');
    expect(await evidence.isVisible()).toBe(false);
    await rule.locator('button.toggle').click();
    await evidence.waitFor();
    const text = (await evidence.textContent()) ?? '';
    expect(text).toMatch(/201/);
    expect(text).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/v1\/categories/);
    expect(text).toMatch(/Bearer good…\(masked\)/);
    expect(await page.content()).not.toContain('good-key');
    await evidence.scrollIntoViewIfNeeded();
    await screenshot(page, 'conformance-report');
    expect(external).toEqual([]);
  }, 30_000);

  it('filters the rules by status and kind', async () => {
    const { page } = browser;
    const visible = () => page.locator('tbody.rule:visible').count();
    const total = report.rules.length;
    expect(await visible()).toBe(total);
    await page.locator('input[name="status"][value="pass"]').uncheck();
    await page.locator('input[name="status"][value="skip"]').uncheck();
    expect(await visible()).toBe(report.summary.fail);
    expect(await page.locator('#shown').textContent()).toBe(String(report.summary.fail));
    await page.locator('input[name="kind"][value="contract"]').uncheck();
    const failedAssumptions = report.rules.filter((r) => r.status === 'fail' && r.kind === 'assumption');
    expect(await visible()).toBe(failedAssumptions.length);
    await page.locator('input[name="kind"][value="contract"]').check();
    await page.locator('#expand-failing').click();
    expect(await page.locator('tr.evidence:visible').count()).toBe(report.summary.fail);
  }, 30_000);

  it('shows the coverage matrix of documented (operation, status) pairs', async () => {
    const { page } = browser;
    const cells = await page.locator('#coverage td.yes, #coverage td.no').count();
    expect(cells).toBe(report.coverage.length);
    const ops = new Set(report.coverage.map((c) => c.operationId));
    expect(await page.locator('#coverage tbody tr').count()).toBe(ops.size);
  });
});
