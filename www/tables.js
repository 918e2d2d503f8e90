// HTML tables from the Rust `Table` shape { caption, headers, rows }: the
// first cell of a row is its header; every cell is text (never markup).

export function cell(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** Fills `table` (with or without caption/thead/tbody yet) from a Table. */
export function fillTable(table, { caption, headers, rows }) {
  let cap = table.querySelector('caption');
  if (!cap) {
    cap = document.createElement('caption');
    table.prepend(cap);
  }
  if (caption) cap.textContent = caption;
  const thead = table.querySelector('thead') || table.appendChild(document.createElement('thead'));
  const tbody = table.querySelector('tbody') || table.appendChild(document.createElement('tbody'));
  const hr = document.createElement('tr');
  for (const h of headers) hr.appendChild(cell('th', h, { scope: 'col' }));
  thead.replaceChildren(hr);
  tbody.replaceChildren(...rows.map((r) => {
    const tr = document.createElement('tr');
    r.forEach((v, i) => tr.appendChild(cell(i === 0 ? 'th' : 'td', v, i === 0 ? { scope: 'row' } : {})));
    return tr;
  }));
}

/** A new table element filled from a Table. */
export function makeTable(t, className) {
  const table = document.createElement('table');
  if (className) table.className = className;
  fillTable(table, t);
  return table;
}

/** Tables longer than this many rows start collapsed behind their summary. */
export const LONG_TABLE_ROWS = 12;

/**
 * A table's <details>: its summary says how many rows it holds (`what`: what
 * they are); closed once the table is long, open while short, unless the
 * reader opened or closed it (its summary sets data-chosen).
 */
export function collapseLong(details, rows, what) {
  const summary = details.querySelector('summary');
  summary.textContent = rows ? `Table: ${what} (${rows} row${rows === 1 ? '' : 's'})` : `Table: ${what} (no rows)`;
  if (!details.dataset.chosen) details.open = rows <= LONG_TABLE_ROWS;
}
