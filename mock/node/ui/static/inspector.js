/* global document, fetch, EventSource */
// The inspector: listens to /_mock/inspector/events (server-sent events: a snapshot whenever something
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
    fill($('categories'), data.categories, (tr, c) => {
      tr.dataset.id = String(c.id);
      cell(tr, String(c.id));
      cell(tr, c.name);
      cell(tr, c.description || '');
    });
    $('category-count').textContent = `(${data.categories.length})`;
    fill($('requests'), data.recent, (tr, r) => {
      cell(tr, new Date(r.t).toLocaleTimeString());
      cell(tr, r.method);
      cell(tr, r.path);
      cell(tr, String(r.status), { class: `status s${String(r.status)[0]}` });
      cell(tr, `${r.ms} ms`);
      cell(tr, r.caller, { 'data-plan': r.plan });
    });
    $('reset-box').hidden = !data.reset.enabled;
    $('token-label').hidden = !data.reset.tokenRequired;
  }

  function listen() {
    const events = new EventSource('/_mock/inspector/events');
    events.onmessage = (event) => {
      render(JSON.parse(event.data));
      $('status').textContent = `live: updated ${new Date().toLocaleTimeString()}`;
      $('status').className = 'ok';
    };
    events.onerror = () => {
      $('status').textContent = 'not connected to the mock; reconnecting…';
      $('status').className = 'error';
    };
  }

  $('reset').addEventListener('click', async () => {
    const token = $('admin-token').value;
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const res = await fetch('/_mock/reset', { method: 'POST', headers });
    const body = await res.json().catch(() => ({}));
    $('reset-result').textContent = res.ok ? 'state reset' : `reset refused: ${body.message || res.status}`;
  });

  listen();
})();
