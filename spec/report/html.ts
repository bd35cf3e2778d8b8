/**
 * One self-contained HTML file (inline CSS and JS, no external assets) to open from a CI artifact: a summary
 * bar, the rules as a table filterable by status and kind, every non-passing rule expandable to its evidence
 * (request, response excerpt, problem; keys masked), and the coverage matrix of documented (operation, status).
 */
import { maskAuthorization } from '../mask';
import type { CoverageEntry, Evidence, RecordedRequest, Report, RuleResult } from './types';
import { bodyExcerpt, whyOf } from './describe';
import type { ReportMeta } from './describe';

const esc = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The HTML reporter. */
export function formatHtml(report: Report, meta: ReportMeta = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${esc(report.target)}</title>
<style>${CSS}</style>
<noscript><style>tr.evidence[hidden] { display: table-row; } #filters { display: none; }</style></noscript>
</head>
<body>
${summarySection(report, meta)}
${rulesSection(report.rules)}
${clientSection(report.clientRequests ?? [])}
${cleanupSection(report)}
${coverageSection(report.coverage)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function summarySection(report: Report, meta: ReportMeta): string {
  const { pass, fail, skip } = report.summary;
  const total = pass + fail + skip || 1;
  const seg = (status: string, n: number, label: string) =>
    n === 0 ? '' : `<span class="seg ${status}" style="flex-grow:${n / total}">${n} ${label}</span>`;
  const failedContract = report.rules.filter((r) => r.status === 'fail' && r.kind === 'contract').length;
  const verdict =
    failedContract > 0
      ? `<p class="verdict fail">${failedContract} contract rule${failedContract === 1 ? '' : 's'} failed</p>`
      : '<p class="verdict pass">Every contract rule holds</p>';
  return `<header>
<h1>Conformance report</h1>
<p class="meta">target <code>${esc(report.target)}</code> · started ${esc(report.startedAt)} · ${report.durationMs} ms${
    meta.seed !== undefined ? ` · seed ${meta.seed}` : ''
  }</p>
<div class="bar" id="summary" role="img" aria-label="${pass} passed, ${fail} failed, ${skip} skipped">${seg('pass', pass, 'passed')}${seg('fail', fail, 'failed')}${seg('skip', skip, 'skipped')}</div>
${verdict}
</header>`;
}

function rulesSection(rules: RuleResult[]): string {
  const count = (key: 'status' | 'kind', value: string) => rules.filter((r) => r[key] === value).length;
  const box = (name: 'status' | 'kind', value: string) =>
    `<label><input type="checkbox" name="${name}" value="${value}" checked> ${value} (${count(name, value)})</label>`;
  return `<section>
<h2>Rules <small>(<span id="shown">${rules.length}</span> of ${rules.length} shown)</small></h2>
<form id="filters">
<fieldset><legend>Status</legend>${['fail', 'skip', 'pass'].map((s) => box('status', s)).join('')}</fieldset>
<fieldset><legend>Kind</legend>${['contract', 'assumption'].map((k) => box('kind', k)).join('')}</fieldset>
<button type="button" id="expand-failing">Expand every failing rule</button>
</form>
<table id="rules">
<thead><tr><th>status</th><th>rule</th><th>kind</th><th>source</th><th>title</th><th>why</th></tr></thead>
${rules.map(ruleRows).join('\n')}
</table>
</section>`;
}

function ruleRows(rule: RuleResult, index: number): string {
  const expandable = rule.status !== 'pass' && rule.evidence.length > 0;
  const evId = `evidence-${index}`;
  const toggle = expandable
    ? ` <button type="button" class="toggle" aria-expanded="false" aria-controls="${evId}">evidence (${rule.evidence.length})</button>`
    : '';
  const head = `<tr class="head"><td><span class="badge ${rule.status}">${rule.status}</span></td><td><code>${esc(rule.id)}</code></td><td>${rule.kind}</td><td>${esc(rule.source)}</td><td>${esc(rule.title)}</td><td>${esc(rule.status === 'pass' ? '' : whyOf(rule))}${toggle}</td></tr>`;
  const body = expandable
    ? `\n<tr class="evidence" id="${evId}" hidden><td colspan="6">${rule.evidence.map(evidenceBlock).join('')}</td></tr>`
    : '';
  return `<tbody class="rule" data-id="${esc(rule.id)}" data-status="${rule.status}" data-kind="${rule.kind}">${head}${body}</tbody>`;
}

function evidenceBlock(e: Evidence): string {
  // The exchanges of the rule's check that led to the failing one (a lifecycle's create, read, ...), in order.
  const steps = (e.steps ?? [])
    .map((s, i) =>
      exchangeColumns(`Step ${i + 1}`, s.request, s.response ? { ...e, response: s.response } : null),
    )
    .join('');
  return `<div class="ev">
<p class="problem">${esc(e.problem)}</p>
${steps}${exchangeColumns(e.steps?.length ? 'Failing step' : '', e.request, e.response ? e : null)}
</div>`;
}

function exchangeColumns(label: string, req: RecordedRequest | null, withResponse: Evidence | null): string {
  const request = req ? requestText(req) : '(no request)';
  const res = withResponse?.response;
  const response = res
    ? `${res.status}\n${headerLines(res.headers)}\n\n${bodyExcerpt(withResponse, 2000)}`
    : '(no response)';
  const title = label ? `<h4 class="step">${esc(label)}</h4>` : '';
  return `${title}<div class="cols"><div><h4>Request</h4><pre class="request">${esc(request)}</pre></div><div><h4>Response (excerpt)</h4><pre class="response">${esc(response)}</pre></div></div>`;
}

/** The proxy's request-side observations, apart from the rules: the client's fault, never counted. */
function clientSection(rules: readonly RuleResult[]): string {
  if (rules.length === 0) return '';
  const rows = rules.map(
    (r) =>
      `<tr><td><code>${esc(r.id)}</code></td><td>${r.evidence.length}</td><td>${esc(r.evidence[0]?.problem ?? '')}</td></tr>`,
  );
  return `<section id="client-requests">
<h2>Client requests the document refuses <small>(${rules.length} rules; not the server's fault, not counted above)</small></h2>
<table>
<thead><tr><th>rule</th><th>seen</th><th>first</th></tr></thead>
${rows.join('\n')}
</table>
</section>`;
}

function cleanupSection(report: Report): string {
  const cleanup = report.cleanup;
  if (!cleanup || (cleanup.deleted === 0 && cleanup.leftovers.length === 0)) return '';
  const rows = cleanup.leftovers.map(
    (l) => `<tr><td>${esc(l.resource)}</td><td><code>${esc(l.id)}</code></td><td>${esc(l.reason)}</td></tr>`,
  );
  return `<section id="cleanup">
<h2>Clean-up: ${cleanup.deleted} deleted, ${cleanup.leftovers.length} left on the target</h2>
${rows.length > 0 ? `<table><thead><tr><th>resource</th><th>id</th><th>why it is left</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : ''}
</section>`;
}

/** The request as sent, with the Authorization value masked even if a caller forgot to. */
function requestText(req: RecordedRequest): string {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] =
      name.toLowerCase() === 'authorization' && !value.includes('(masked)')
        ? maskAuthorization(value)
        : value;
  }
  return `${req.method} ${req.url}\n${headerLines(headers)}${req.body ? `\n\n${req.body}` : ''}`;
}

const headerLines = (headers: Record<string, string>): string =>
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

function coverageSection(coverage: CoverageEntry[]): string {
  const statuses = [...new Set(coverage.map((c) => c.status))].sort();
  const ops = new Map<string, Map<string, CoverageEntry>>();
  for (const c of coverage) {
    const key = `${c.operationId}\u0000${c.method} ${c.path}`;
    ops.set(key, (ops.get(key) ?? new Map<string, CoverageEntry>()).set(c.status, c));
  }
  const observed = coverage.filter((c) => c.observed).length;
  const rows = [...ops].map(([key, cells]) => {
    const [operationId = '', route = ''] = key.split('\u0000');
    const tds = statuses.map((s) => {
      const cell = cells.get(s);
      if (cell === undefined) return '<td class="na" title="not documented"></td>';
      // The count where one is known (a coverage file, a merged --coverage union).
      const times = cell.count === undefined ? '' : ` ${cell.count}`;
      return cell.observed
        ? `<td class="yes" title="${s} observed${times ? `${times} time(s)` : ''}">✓${times}</td>`
        : `<td class="no" title="${s} documented, never exercised">✗</td>`;
    });
    return `<tr><th scope="row"><code>${esc(operationId)}</code> <small>${esc(route)}</small></th>${tds.join('')}</tr>`;
  });
  return `<section>
<h2>Coverage: ${observed}/${coverage.length} documented (operation, status) pairs observed</h2>
<table id="coverage">
<thead><tr><th>operation</th>${statuses.map((s) => `<th>${esc(s)}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody>
</table>
<p class="legend">✓ observed (with the number of exchanges) · ✗ documented, never exercised · blank: not documented</p>
</section>`;
}

const CSS = `
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 80rem; padding: 1rem 1.5rem; color: #1f2328; }
h1 { margin: 0 0 0.3rem; } .meta { color: #555; margin: 0 0 0.8rem; }
.bar { display: flex; height: 2rem; border-radius: 6px; overflow: hidden; font-weight: 600; color: #fff; }
.seg { display: flex; align-items: center; justify-content: center; min-width: 5.5rem; white-space: nowrap; }
.seg.pass, .badge.pass { background: #1a7f37; } .seg.fail, .badge.fail { background: #cf222e; }
.seg.skip, .badge.skip { background: #9a6700; }
.verdict { font-weight: 600; } .verdict.fail { color: #cf222e; } .verdict.pass { color: #1a7f37; }
#filters { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.6rem; }
fieldset { border: 1px solid #d0d7de; border-radius: 6px; padding: 0.2rem 0.7rem; }
fieldset label { margin-right: 0.8rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
thead th { background: #f6f8fa; }
.badge { color: #fff; border-radius: 1rem; padding: 0.05rem 0.55rem; font-size: 0.8rem; }
button.toggle { margin-left: 0.4rem; font-size: 0.8rem; }
tr.evidence td { background: #fff8f8; }
.ev { border-left: 3px solid #cf222e; padding: 0.2rem 0.8rem; margin: 0.4rem 0; }
.problem { font-weight: 600; margin: 0.2rem 0; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 0.8rem; }
h4 { margin: 0.2rem 0; font-size: 0.8rem; text-transform: uppercase; color: #555; }
pre { background: #f6f8fa; padding: 0.5rem; overflow: auto; max-height: 20rem; white-space: pre-wrap; word-break: break-all; margin: 0; }
#coverage { width: auto; } #coverage td { text-align: center; min-width: 3rem; }
td.yes { background: #dafbe1; color: #1a7f37; } td.no { background: #ffebe9; color: #cf222e; } td.na { background: #f6f8fa; }
.legend { color: #555; font-size: 0.85rem; }
`;

const SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  function checked(name) {
    return Array.prototype.map.call(form.querySelectorAll('input[name="' + name + '"]:checked'), function (i) { return i.value; });
  }
  function apply() {
    var status = checked('status'), kind = checked('kind'), shown = 0;
    document.querySelectorAll('tbody.rule').forEach(function (tb) {
      var visible = status.indexOf(tb.dataset.status) !== -1 && kind.indexOf(tb.dataset.kind) !== -1;
      tb.hidden = !visible;
      if (visible) shown++;
    });
    document.getElementById('shown').textContent = String(shown);
  }
  function setOpen(button, open) {
    button.setAttribute('aria-expanded', String(open));
    document.getElementById(button.getAttribute('aria-controls')).hidden = !open;
  }
  form.addEventListener('change', apply);
  document.getElementById('expand-failing').addEventListener('click', function () {
    document.querySelectorAll('tbody.rule[data-status="fail"] button.toggle').forEach(function (b) { setOpen(b, true); });
  });
  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('button.toggle');
    if (button) setOpen(button, button.getAttribute('aria-expanded') !== 'true');
  });
})();
`;
