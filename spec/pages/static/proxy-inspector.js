/* global document, fetch, setTimeout */
// The validation proxy's inspector: polls /_mock/exchanges (the newest exchanges with their verdicts) and
// /_mock/violations every second, and renders with textContent only (paths and messages come from traffic).
'use strict';
(function proxyInspector() {
  const $ = (id) => document.getElementById(id);

  function row(cells, className) {
    const tr = document.createElement('tr');
    if (className) tr.className = className;
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    return tr;
  }

  const time = (at) => new Date(at).toLocaleTimeString();

  function render(exchanges, violations) {
    $('status').textContent =
      `${violations.exchanges} exchanges judged, ${violations.violations.length} violations kept` +
      (violations.dropped ? ` (${violations.dropped} older ones dropped)` : '');
    $('exchanges')
      .querySelector('tbody')
      .replaceChildren(
        ...exchanges.exchanges
          .slice()
          .reverse()
          .map((e) =>
            row(
              [
                time(e.at),
                e.method,
                e.path,
                String(e.status),
                `${e.ms} ms`,
                e.violations.length
                  ? `${e.violations.length} violation(s): ${e.violations.map((v) => v.rule).join(', ')}`
                  : 'clean',
              ],
              e.violations.length ? 'violated' : 'clean',
            ),
          ),
      );
    $('violations')
      .querySelector('tbody')
      .replaceChildren(
        ...violations.violations
          .slice()
          .reverse()
          .slice(0, 200)
          .map((v) =>
            row([
              time(v.at),
              v.side,
              v.rule,
              v.operationId || '-',
              `${v.method} ${v.path}`,
              String(v.status ?? '-'),
              v.message,
            ]),
          ),
      );
  }

  async function poll() {
    try {
      const [exchanges, violations] = await Promise.all(
        ['/_mock/exchanges', '/_mock/violations'].map((u) =>
          fetch(u, { cache: 'no-store' }).then((r) => r.json()),
        ),
      );
      render(exchanges, violations);
    } catch (err) {
      $('status').textContent = `cannot read the proxy's data: ${err.message}`;
    }
    setTimeout(poll, 1000);
  }
  void poll();
})();
