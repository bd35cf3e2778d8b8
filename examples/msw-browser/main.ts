/**
 * The pet store API mocked inside the page: msw's service worker catches `/v1/*` on this origin and the mock's
 * engine (validation, auth, state, rate limits) answers it here, in the page. No mock server runs anywhere.
 * Written for MSW 3 (`onUnhandledFrame`); with MSW 2 the start option is `onUnhandledRequest`, the rest is the same.
 *
 * The document, the keys and the seed are passed in: a browser reads no file. The build parses
 * spec/openapi.yaml into the bundle (scripts/lib/example-msw.js), so no YAML parser is shipped.
 */
import { setupWorker } from 'msw/browser';
import { createMswHandlers, type MswHandlerOptions } from 'petstore-contract-tools/msw';
import keys from '../../fixtures/keys.json';
import seed from '../../fixtures/seed.json';
import openapi from '../../spec/openapi.yaml';

interface Category {
  id: number;
  name: string;
  description?: string;
}

/** Bounds the "spend" loop: a free key's day (1,000) is spent long before. */
const MAX_SPEND = 2000;

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from index.html`);
  return el as T;
};

const keyOf = (plan: string): string => keys.keys.find((k) => k.plan === plan)?.key ?? '';

/** Status line, headers of interest and the body, as text for a <pre>. */
async function describe(res: Response): Promise<string> {
  const lines = [`HTTP ${res.status} ${res.statusText}`.trim()];
  for (const name of ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'WWW-Authenticate']) {
    const value = res.headers.get(name);
    if (value !== null) lines.push(`${name}: ${value}`);
  }
  const text = await res.text();
  try {
    lines.push('', JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    if (text) lines.push('', text);
  }
  return lines.join('\n');
}

function api(path: string, key: string | null, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (key) headers.set('Authorization', `Bearer ${key}`);
  return fetch(`/v1${path}`, { ...init, headers });
}

async function loadCategories(): Promise<void> {
  const list = $<HTMLUListElement>('categories');
  const res = await api('/categories', $<HTMLSelectElement>('key').value);
  if (!res.ok) {
    $('list-error').textContent = await describe(res);
    return;
  }
  $('list-error').textContent = '';
  const items = (await res.json()) as Category[];
  list.replaceChildren(
    ...items.map((c) => {
      const li = document.createElement('li');
      li.dataset.id = String(c.id);
      li.textContent = c.description ? `${c.id}: ${c.name} (${c.description})` : `${c.id}: ${c.name}`;
      return li;
    }),
  );
  list.setAttribute('aria-busy', 'false');
}

async function createCategory(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const data = new FormData(form);
  const body: Record<string, string> = { name: String(data.get('name') ?? '') };
  const description = String(data.get('description') ?? '');
  if (description) body.description = description;
  const res = await api('/categories', $<HTMLSelectElement>('key').value, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  $('create-result').textContent = await describe(res);
  if (res.status === 201) {
    form.reset();
    await loadCategories();
  }
}

/** MSW's own reset: `resetHandlers()` also puts the mock's records and counters back to the seed. */
let resetHandlers = (): void => undefined;

async function resetMock(): Promise<void> {
  resetHandlers();
  $('create-result').textContent = '';
  $('spend-result').textContent = '';
  delete $('spend-result').dataset.status;
  await loadCategories();
}

async function callWithoutKey(): Promise<void> {
  $('no-key-result').textContent = await describe(await api('/categories', null));
}

/** Send requests with one key until the mock answers 429 (or MAX_SPEND requests), then show that answer. */
async function spendKey(): Promise<void> {
  const key = keyOf('free');
  const out = $('spend-result');
  for (let sent = 1; sent <= MAX_SPEND; sent++) {
    const res = await api('/categories', key);
    if (res.status === 429 || sent === MAX_SPEND) {
      out.textContent = `after ${sent} requests:\n${await describe(res)}`;
      out.dataset.status = String(res.status);
      return;
    }
    await res.body?.cancel();
    if (sent % 10 === 0) out.textContent = `${sent} requests sent…`;
  }
}

/** Run an action from a button, showing an unexpected failure instead of swallowing it. */
const guard =
  <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
  (...args: A): void => {
    action(...args).catch((error: unknown) => {
      $('status').textContent = `Error: ${error instanceof Error ? error.message : String(error)}`;
    });
  };

async function main(): Promise<void> {
  const select = $<HTMLSelectElement>('key');
  for (const entry of keys.keys) {
    select.append(new Option(`${entry.key} (${entry.plan})`, entry.key, false, entry.plan === 'pro'));
  }
  $('free-key').textContent = keyOf('free');

  const handlers = await createMswHandlers({
    document: openapi as unknown as MswHandlerOptions['document'],
    keys,
    seed,
  });
  const worker = setupWorker(...handlers);
  await worker.start({ onUnhandledFrame: 'bypass', quiet: true });
  resetHandlers = () => worker.resetHandlers();
  $('status').textContent =
    'Mock running in this page: /v1/* is answered by the engine through the service worker.';
  $('status').dataset.ready = 'true';

  select.addEventListener('change', guard(loadCategories));
  $('refresh').addEventListener('click', guard(loadCategories));
  $<HTMLFormElement>('create').addEventListener('submit', guard(createCategory));
  $('no-key').addEventListener('click', guard(callWithoutKey));
  $('spend').addEventListener('click', guard(spendKey));
  $('reset').addEventListener('click', guard(resetMock));
  await loadCategories();
}

guard(main)();
