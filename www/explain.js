// The "Explain ε" panel: one collapsible entry per private run (or group of
// runs), built by the scenario in Rust ({ summary, paragraphs, tables, notes,
// reading }); this module only draws them. An unchanged list is not redrawn,
// so entries a reader opened stay open while a run progresses.
import { cell, makeTable } from './tables.js';

export class ExplainPanel {
  constructor(root) {
    this.root = root;
    this.key = null;
  }

  clear(message) {
    this.key = null;
    this.root.replaceChildren(cell('p', message));
  }

  show(entries) {
    const key = JSON.stringify(entries.map((e) => e.summary));
    if (key === this.key) return;
    this.key = key;
    if (entries.length === 0) {
      this.root.replaceChildren(cell('p', 'No private run has finished yet.'));
      return;
    }
    this.root.replaceChildren(...entries.map((e, i) => {
      const det = document.createElement('details');
      det.open = i === 0;
      det.appendChild(cell('summary', e.summary));
      if (e.reading) det.appendChild(cell('p', e.reading, { class: 'reading' }));
      for (const p of e.paragraphs) det.appendChild(cell('p', p));
      for (const t of e.tables) {
        // Wide tables scroll inside the panel: focusable, so a keyboard can scroll them.
        const table = makeTable(t, 'privacy-table');
        table.tabIndex = 0;
        det.appendChild(table);
      }
      if (e.notes.length) {
        const ul = document.createElement('ul');
        for (const n of e.notes) ul.appendChild(cell('li', n));
        det.appendChild(ul);
      }
      return det;
    }));
  }
}
