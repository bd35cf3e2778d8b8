/* global document, fetch, sessionStorage, AbortController, TextDecoderStream, CSS, setTimeout, clearTimeout */
// The inspector: reads /_mock/inspector/events (server-sent events: a snapshot whenever something
// changes) and renders with textContent only (category names are user input). Keys appear by their masked
// label; the page never sees a key.
'use strict';
(function inspector() {
  const $ = (id) => document.getElementById(id);

  function cell(row, text, attrs) {
    const td = document.createElement('td');
    td.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) td.setAttribute(k, v);
    row.appendChild(td);
    return td;
  }

  function fill(tbodyParent, items, render) {
    const tbody = tbodyParent.querySelector('tbody');
    tbody.replaceChildren(
      ...items.map((item) => {
        const tr = document.createElement('tr');
        render(tr, item);
        return tr;
      }),
    );
  }

  function quotaCell(row, w) {
    const td = cell(row, `${w.remaining} / ${w.limit}`, {
      'data-window': w.window,
      'data-remaining': String(w.remaining),
    });
    if (w.remaining === 0) td.classList.add('empty');
    const bar = document.createElement('span');
    bar.className = 'bar';
    bar.style.setProperty('--fill', `${Math.round((100 * w.remaining) / w.limit)}%`);
    td.appendChild(bar);
  }

  // One table per resource; its columns are the properties its records have (the first eight).
  function renderRecords(records, counts) {
    const box = $('resources');
    for (const [name, items] of Object.entries(records)) {
      let section = box.querySelector(`section[data-resource="${CSS.escape(name)}"]`);
      if (!section) {
        section = document.createElement('section');
        section.dataset.resource = name;
        const h2 = document.createElement('h2');
        section.appendChild(h2);
        const table = document.createElement('table');
        table.id = name;
        table.appendChild(document.createElement('thead'));
        table.appendChild(document.createElement('tbody'));
        section.appendChild(table);
        box.appendChild(section);
      }
      const count = counts[name] || { total: items.length, shown: items.length };
      section.querySelector('h2').textContent =
        count.total > count.shown
          ? `Stored ${name} (${count.total}; the first ${count.shown} shown)`
          : `Stored ${name} (${count.total})`;
      const columns = [...new Set(items.flatMap((i) => Object.keys(i)))].slice(0, 8);
      const head = document.createElement('tr');
      for (const c of columns) {
        const th = document.createElement('th');
        th.textContent = c;
        head.appendChild(th);
      }
      section.querySelector('thead').replaceChildren(head);
      fill(section.querySelector('table'), items, (tr, item) => {
        for (const c of columns) {
          const v = item[c];
          cell(tr, v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
        }
      });
    }
  }

  function render(data) {
    fill($('keys'), data.keys, (tr, k) => {
      tr.dataset.label = k.label;
      cell(tr, k.label);
      cell(tr, k.plan);
      for (const name of ['minute', 'day']) {
        const w = k.windows.find((x) => x.window === name);
        if (w) quotaCell(tr, w);
        else cell(tr, '');
      }
    });
    $('inferred').replaceChildren(
      ...data.resources.map((line) => {
        const li = document.createElement('li');
        li.textContent = line;
        return li;
      }),
    );
    renderRecords(data.records, data.counts || {});
    fill($('requests'), data.recent, (tr, r) => {
      cell(tr, new Date(r.t).toLocaleTimeString());
      cell(tr, r.method);
      cell(tr, r.path);
      cell(tr, r.status === 0 ? 'reset' : String(r.status), { class: `status s${String(r.status)[0]}` });
      cell(tr, `${r.ms} ms`);
      cell(tr, r.caller, { 'data-plan': r.plan });
      // Latency and faults the mock injected (--latency, --faults, Prefer: delay): flagged, not the API's own.
      cell(tr, r.injected ? `injected: ${r.injected}` : '', r.injected ? { class: 'injected' } : {});
    });
    const callbacks = data.callbacks || [];
    fill($('callbacks'), callbacks, (tr, c) => {
      cell(tr, new Date(c.t).toLocaleTimeString());
      cell(tr, c.name);
      cell(tr, c.method);
      cell(tr, c.url || '');
      cell(tr, c.outcome, { class: `outcome ${c.outcome}` });
      cell(tr, c.detail);
    });
    $('callbacks-box').hidden = callbacks.length === 0;
    const refused = data.refused || [];
    fill($('refused'), refused, (tr, r) => {
      tr.dataset.caller = r.caller;
      cell(tr, r.caller);
      cell(tr, r.plan);
      cell(tr, new Date(r.t).toLocaleTimeString());
      cell(tr, r.path);
    });
    const held = (data.held && data.held.callers) || [];
    fill($('held'), held, (tr, h) => {
      tr.dataset.caller = h.caller;
      tr.dataset.state = h.state;
      cell(tr, h.caller);
      cell(tr, h.plan);
      cell(tr, h.state);
      cell(tr, new Date(h.untilMs).toLocaleString());
      const td = cell(tr, '');
      if (data.reset.enabled) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'lift-one';
        button.dataset.caller = h.caller;
        button.textContent = 'Lift';
        td.appendChild(button);
      }
    });
    $('held-more').hidden = !(data.held && data.held.truncated);
    $('refused').hidden = refused.length === 0;
    $('refused-title').hidden = refused.length === 0;
    $('refused-box').hidden = refused.length === 0 && held.length === 0;
    $('lift').hidden = !data.reset.enabled;
    $('reset-box').hidden = !data.reset.enabled;
    $('token-label').hidden = !data.reset.tokenRequired;
  }

  // The admin token, when the mock needs one: kept for this tab only, sent as a header (never in a URL).
  const tokenInput = $('admin-token');
  tokenInput.value = sessionStorage.getItem('mock-admin-token') || '';
  tokenInput.addEventListener('change', () => {
    sessionStorage.setItem('mock-admin-token', tokenInput.value);
    reconnect(0);
  });
  const authHeaders = () => (tokenInput.value ? { Authorization: `Bearer ${tokenInput.value}` } : {});

  function status(text, ok) {
    $('status').textContent = text;
    $('status').className = ok ? 'ok' : 'error';
  }

  // Server-sent events read with fetch (EventSource cannot send the token): one `data:` line per snapshot.
  let controller;
  let timer;
  function reconnect(delay) {
    clearTimeout(timer);
    if (controller) controller.abort();
    timer = setTimeout(listen, delay);
  }
  async function listen() {
    controller = new AbortController();
    let res;
    try {
      res = await fetch('/_mock/inspector/events', { headers: authHeaders(), signal: controller.signal });
    } catch {
      status('not connected to the mock; reconnecting…', false);
      return reconnect(2000);
    }
    if (res.status === 403) {
      $('token-label').hidden = false;
      status('the inspector needs the admin token: enter it above', false);
      return undefined;
    }
    if (!res.ok || !res.body) {
      status(`the mock answered ${res.status}; reconnecting…`, false);
      return reconnect(5000);
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (!data || event.startsWith('event: problem')) continue;
          render(JSON.parse(data));
          status(`live: updated ${new Date().toLocaleTimeString()}`, true);
        }
      }
    } catch {
      // aborted or cut off: reconnect below
    }
    status('not connected to the mock; reconnecting…', false);
    return reconnect(2000);
  }

  $('reset').addEventListener('click', async () => {
    // The custom header is what a cross-site page cannot send; the token, when the mock needs one.
    const headers = { 'X-Mock-Admin': '1', ...authHeaders() };
    const res = await fetch('/_mock/reset', { method: 'POST', headers });
    const body = await res.json().catch(() => ({}));
    $('reset-result').textContent = res.ok ? 'state reset' : `reset refused: ${body.message || res.status}`;
  });

  // One caller: its ban and counts are forgotten (POST /_mock/limits/lift?caller=LABEL), the others keep theirs.
  $('held').addEventListener('click', async (event) => {
    const button = event.target.closest('button.lift-one');
    if (!button) return;
    const headers = { 'X-Mock-Admin': '1', ...authHeaders() };
    const url = `/_mock/limits/lift?caller=${encodeURIComponent(button.dataset.caller)}`;
    const res = await fetch(url, { method: 'POST', headers });
    const body = await res.json().catch(() => ({}));
    $('lift-result').textContent = res.ok
      ? `lifted ${button.dataset.caller}`
      : `refused: ${body.message || res.status}`;
  });

  $('lift').addEventListener('click', async () => {
    const headers = { 'X-Mock-Admin': '1', ...authHeaders() };
    const res = await fetch('/_mock/limits/reset', { method: 'POST', headers });
    const body = await res.json().catch(() => ({}));
    $('lift-result').textContent = res.ok
      ? 'limits and bans lifted'
      : `refused: ${body.message || res.status}`;
  });

  listen();
})();
