/** The HTML of the two pages. Static shells: the data comes from the scripts, rendered with textContent. */

export interface PageOptions {
  inspector: boolean;
  /** The document's `info.title`. */
  title: string;
  /** A curl command for a safe GET of the document against this mock (mock/node/try-curl.ts). */
  curl?: string;
}

const curlHint = (options: PageOptions): string =>
  options.curl
    ? `<p class="mock-hint">From a terminal: <code id="try-curl">${escapeHtml(options.curl)}</code></p>\n`
    : '';

/** Escape text for HTML (the title comes from the document). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The `<head>` every page shares: `title` is escaped here; `styles` are extra stylesheets before ours. */
function head(title: string, styles: string[] = []): string {
  const links = [...styles, '/_mock/ui/pages.css'].map((href) => `<link rel="stylesheet" href="${href}">`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/_mock/ui/favicon-32x32.png">
${links.join('\n')}
</head>`;
}

function nav(current: 'docs' | 'inspector', options: PageOptions): string {
  const link = (href: string, text: string, here: boolean) =>
    `<a href="${href}"${here ? ' aria-current="page"' : ''}>${text}</a>`;
  return `<header class="mock-nav"><strong>${escapeHtml(options.title)} (mock)</strong>
  <nav>${link('/_mock/docs', 'API reference', current === 'docs')}${
    options.inspector ? link('/_mock/inspector', 'Inspector', current === 'inspector') : ''
  }${link('/openapi.json', 'openapi.json', false)}${link('/openapi.yaml', 'openapi.yaml', false)}</nav></header>`;
}

/** The API reference: Swagger UI over the spec, its first server being this mock's /v1. */
export function docsPage(options: PageOptions): string {
  return `${head(`${options.title}: API reference (mock)`, ['/_mock/ui/swagger-ui.css'])}
<body>
${nav('docs', options)}
<p class="mock-hint">"Try it out" calls this mock. Click <em>Authorize</em> and paste an API key first
(the demo keys are printed when the mock starts).</p>
${curlHint(options)}<main id="swagger-ui"></main>
<script src="/_mock/ui/swagger-ui-bundle.js"></script>
<script src="/_mock/ui/docs.js"></script>
</body>
</html>
`;
}

/** The inspector: what the mock inferred, each key's remaining quota, the stored records of every resource, reset. */
export function inspectorPage(options: PageOptions): string {
  return `${head(`${options.title}: mock inspector`)}
<body class="inspector">
${nav('inspector', options)}
${curlHint(options)}<main>
  <p id="status" role="status" aria-live="polite">loading…</p>
  <section id="reset-box" hidden>
    <label id="token-label" hidden>Admin token <input id="admin-token" type="password" autocomplete="off"></label>
    <button id="reset" type="button">Reset state</button>
    <span id="reset-result"></span>
  </section>
  <section id="refused-box" hidden>
    <h2>Held callers: banned or limited now (429)</h2>
    <table id="held"><thead><tr><th>Caller</th><th>Plan</th><th>State</th><th>Until</th><th></th></tr></thead><tbody></tbody></table>
    <p id="held-more" hidden>More callers are held than shown: GET /_mock/limits lists the first 100.</p>
    <h2 id="refused-title">Recently refused requests</h2>
    <table id="refused"><thead><tr><th>Caller</th><th>Plan</th><th>Last refused</th><th>Path</th></tr></thead><tbody></tbody></table>
    <button id="lift" type="button">Lift every limit and ban</button>
    <span id="lift-result"></span>
  </section>
  <section>
    <h2>Keys: remaining quota</h2>
    <table id="keys"><thead><tr><th>Key (masked)</th><th>Plan</th><th>Minute window</th><th>Day window</th></tr></thead><tbody></tbody></table>
  </section>
  <section>
    <h2>Resources inferred from the document</h2>
    <ul id="inferred"></ul>
  </section>
  <div id="resources"></div>
  <section>
    <h2>Recent requests</h2>
    <table id="requests"><thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>latency</th><th>caller</th><th>injected</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="callbacks-box" hidden>
    <h2>Callbacks sent</h2>
    <table id="callbacks"><thead><tr><th>time</th><th>callback</th><th>method</th><th>url</th><th>outcome</th><th>answers</th></tr></thead><tbody></tbody></table>
  </section>
</main>
<script src="/_mock/ui/inspector.js"></script>
</body>
</html>
`;
}

/** The validation proxy's inspector: every exchange with its verdict, and the violations, live. */
export function proxyInspectorPage(options: PageOptions): string {
  return `${head(`${options.title}: validation proxy inspector`)}
<body class="inspector">
${nav('inspector', options)}
<main>
  <p id="status" role="status" aria-live="polite">loading…</p>
  <section>
    <h2>Recent exchanges</h2>
    <table id="exchanges"><thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>latency</th><th>verdict</th></tr></thead><tbody></tbody></table>
  </section>
  <section>
    <h2>Violations</h2>
    <table id="violations"><thead><tr><th>time</th><th>side</th><th>rule</th><th>operation</th><th>request</th><th>status</th><th>message</th></tr></thead><tbody></tbody></table>
  </section>
</main>
<script src="/_mock/ui/proxy-inspector.js"></script>
</body>
</html>
`;
}

export interface FrontDoorOptions extends PageOptions {
  /** The document's `info.version`, when it has one. */
  version?: string;
  /** Where the API answers: `http://host:port/v1`, or only the base path when the Host header is unusable. */
  baseUrl: string;
  /** The base path itself, for the link. */
  basePath: string;
  /** Set on the validation proxy: the upstream it forwards to (credentials masked). */
  proxyOf?: string;
}

/** `GET /` from a browser: what this is, where the API answers, and links to the pages and the spec. */
export function frontDoorPage(options: FrontDoorOptions): string {
  const title = escapeHtml(options.title);
  const version = options.version ? ` <small>${escapeHtml(options.version)}</small>` : '';
  const item = (href: string, text: string, about: string) =>
    `  <li><a href="${escapeHtml(href)}">${text}</a>: ${about}</li>`;
  const what = options.proxyOf ? 'validation proxy' : 'mock';
  const intro = options.proxyOf
    ? `A validation proxy in front of <code>${escapeHtml(options.proxyOf)}</code>: every request under the base URL is forwarded there, and both directions are judged against the OpenAPI document.`
    : 'A mock of this API, served from its OpenAPI document.';
  return `${head(`${options.title} (${what})`)}
<body class="front-door">
<main>
<h1>${title}${version} (${what})</h1>
<p>${intro} Base URL:
<a href="${escapeHtml(options.basePath || '/')}"><code>${escapeHtml(options.baseUrl)}</code></a>
${options.proxyOf ? '(credentials pass through to the upstream untouched).' : '(the API keys are printed when the mock starts).'}</p>
<ul>
${[
  item('/_mock/docs', 'API reference', `every operation, with "Try it out" calling this ${what}`),
  ...(options.inspector
    ? [
        item(
          '/_mock/inspector',
          'Inspector',
          options.proxyOf
            ? 'each exchange with its verdict, and the violations, live'
            : "recent requests, stored records, each key's remaining quota",
        ),
      ]
    : []),
  item('/openapi.yaml', 'openapi.yaml', 'the document as written'),
  item('/openapi.json', 'openapi.json', 'the same document as JSON, for tools'),
].join('\n')}
</ul>
</main>
</body>
</html>
`;
}

/**
 * Pure: does this request ask for the front door? `GET`/`HEAD /` whose `Accept` names `text/html` itself
 * (browsers do) with a q above 0. A wildcard Accept alone, `application/json` or no Accept: no, the JSON 404 stays.
 */
export function wantsFrontDoor(method: string, path: string, accept: string | string[] | undefined): boolean {
  if (path !== '/' || (method !== 'GET' && method !== 'HEAD') || accept === undefined) return false;
  const text = Array.isArray(accept) ? accept.join(',') : accept;
  if (text.length > 4096) return false;
  return text.split(',').some((part) => {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return range === 'text/html' && (q === undefined || Number(q.slice(2)) > 0);
  });
}
