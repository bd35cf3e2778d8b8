/**
 * The mock's pages in a real browser (headless Chromium): the reference shows every operation and "Try it out"
 * calls the mock; the inspector follows API traffic live (categories, quotas, recent requests) and resets.
 */
import { createMockServer, type MockServer } from '../../mock/node';
import { describeBrowser, launchBrowser, screenshot, type BrowserSession } from './browser';

const KEYS = [
  { key: 'e2e-pro-key', plan: 'pro' as const },
  { key: 'e2e-tiny-key', plan: 'enterprise' as const, perMinute: 3, perDay: 100 },
];

describeBrowser('the mock pages in Chromium', () => {
  let mock: MockServer;
  let base: string;
  let origin: string;
  let browser: BrowserSession;

  beforeAll(async () => {
    // A clock that starts 10 s into a minute, so the minute window cannot roll over mid-test.
    const start = Date.now();
    const t0 = Math.floor(start / 60_000) * 60_000 + 10_000;
    mock = await createMockServer({ keys: KEYS, clock: { now: () => t0 + (Date.now() - start) } });
    base = await mock.listen(0, '127.0.0.1');
    origin = new URL(base).origin;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    });
  const labelOf = (key: string) => mock.deps.keyring.find(key)?.label ?? '';

  it('the reference shows every operation of the spec, and "Try it out" calls the mock', async () => {
    const { page } = browser;
    await page.goto(`${origin}/_mock/docs`);
    const expected = mock.deps.spec.operations.map((op) => op.operationId).sort();
    await page
      .locator('.opblock')
      .nth(expected.length - 1)
      .waitFor();
    const shown = await page.locator('.opblock-summary-operation-id').allTextContents();
    expect(shown.map((s) => s.trim()).sort()).toEqual(expected);
    for (const op of mock.deps.spec.operations) {
      await page.locator(`.opblock [data-path="${op.path}"]`).first().waitFor();
    }
    await screenshot(page, 'api-reference');

    await page.locator('button.authorize').first().click();
    await page.locator('.auth-container input').first().fill('e2e-pro-key');
    await page.locator('.auth-container button.authorize').first().click();
    await page.locator('button.btn-done, button.close-modal').first().click();
    const list = page.locator('[id$="-listCategories"]');
    await list.locator('.opblock-summary-control').click();
    await list.locator('button.try-out__btn').click();
    await list.locator('button.execute').click();
    await list.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
    await expect(list.locator('.request-url').textContent()).resolves.toContain(`${origin}/v1/categories`);
    await list.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await screenshot(page, 'api-reference-try-it');
  }, 60_000);

  it('a category created through the API appears in the inspector, with the request by masked label', async () => {
    const { page } = browser;
    await page.goto(`${origin}/_mock/inspector`);
    await page.locator('#status.ok').waitFor();
    const res = await api('/categories', 'e2e-pro-key', {
      method: 'POST',
      body: JSON.stringify({ name: 'e2e-parrot', description: 'added by the browser test' }),
    });
    expect(res.status).toBe(201);
    await page.locator('#categories td', { hasText: 'e2e-parrot' }).waitFor();
    const row = page.locator('#requests tbody tr').first();
    await row.locator('td', { hasText: labelOf('e2e-pro-key') }).waitFor();
    expect(await row.textContent()).toMatch(/POST\/v1\/categories201/);
    expect(await page.content()).not.toContain('e2e-pro-key');
  }, 30_000);

  it("spending a key's quota shows it at zero in the minute window; reset brings it back", async () => {
    const { page } = browser;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api('/categories', 'e2e-tiny-key')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const minute = page.locator(`tr[data-label="${labelOf('e2e-tiny-key')}"] td[data-window="minute"]`);
    await page
      .locator(`tr[data-label="${labelOf('e2e-tiny-key')}"] td[data-window="minute"][data-remaining="0"]`)
      .waitFor();
    expect(await minute.textContent()).toMatch(/^0 \/ 3/);
    expect(
      await page.locator(`tr[data-label="${labelOf('e2e-tiny-key')}"] td[data-window="day"]`).textContent(),
    ).toMatch(/^97 \/ 100/);
    await page.locator('#requests td', { hasText: '429' }).first().waitFor();
    await screenshot(page, 'inspector');

    await page.locator('#reset').click();
    await page.locator('#reset-result', { hasText: 'state reset' }).waitFor();
    await page
      .locator(`tr[data-label="${labelOf('e2e-tiny-key')}"] td[data-window="minute"][data-remaining="3"]`)
      .waitFor();
    await page.locator('#categories td', { hasText: 'e2e-parrot' }).waitFor({ state: 'detached' });
  }, 30_000);
});
