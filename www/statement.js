// The "Privacy statement" section under the charts: what the guarantee of the
// run shown covers and what it does not (unit of privacy, neighbouring
// relation, mechanism and releases, accountant, ε at δ and δ against 1/n, what
// is not covered). The text is Rust's (the run's `Configuration.privacy_statement`,
// the same as the CLI's privacy-statement.txt for the same settings), written
// from the finished run's explain entries; this module only places it and
// offers it as a file.
import { privacy_statement_file_name, privacy_statement_line } from './pkg/dp_explorer.js';
import { download } from './download.js';
import { setShownStatement } from './export-statement.js';

const WAITING = 'Run a sweep: its privacy statement appears here once it is finished.';

export class StatementPanel {
  /** Builds the section after `after` (an element of the page). */
  constructor(after) {
    const section = document.createElement('section');
    section.id = 'statement-panel';
    section.setAttribute('aria-labelledby', 'statement-title');
    const h2 = document.createElement('h2');
    h2.id = 'statement-title';
    h2.textContent = 'Privacy statement';
    const help = document.createElement('p');
    help.className = 'help';
    help.textContent = 'What the guarantee of the run shown covers and what it does not, as the command line writes it beside the run\'s files.';
    this.pre = document.createElement('pre');
    this.pre.id = 'privacy-statement';
    this.pre.tabIndex = 0; // a long line scrolls: a keyboard can scroll it
    this.pre.style.whiteSpace = 'pre-wrap';
    this.pre.style.overflowWrap = 'anywhere';
    this.pre.textContent = WAITING;
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.id = 'statement-download';
    this.button.disabled = true;
    this.button.textContent = 'Download privacy statement';
    this.button.addEventListener('click', () => {
      if (this.text) download(privacy_statement_file_name(), 'text/plain', this.text);
    });
    const actions = document.createElement('div');
    actions.className = 'actions';
    actions.appendChild(this.button);
    section.append(h2, help, this.pre, actions);
    // The Explain ε panel's box (style.css is another change's; these move there later).
    Object.assign(section.style, {
      background: 'var(--panel)', border: '1px solid var(--border)', borderRadius: '8px', padding: '0.6rem 1rem', margin: '1rem 0',
    });
    Object.assign(h2.style, { margin: '0.2rem 0', fontSize: '1.25em' });
    after.after(section);
    this.section = section;
    this.text = null;
    this.key = null;
  }

  clear(message = WAITING) {
    setShownStatement(null, null);
    this.text = null;
    this.key = null;
    this.pre.style.color = '';
    this.pre.textContent = message;
    this.button.disabled = true;
  }

  /**
   * The statement of `run` ({ preset, fields }, checked as `configuration`) from its snapshot `snap`;
   * a run still in progress keeps the previous statement (faded) or says it will come.
   */
  show(run, configuration, snap) {
    if (!run || !configuration || !snap.finished) {
      // The previous run's statement stays, faded, until this run's is in;
      // the exports carry none meanwhile (it is not this run's).
      setShownStatement(null, null);
      this.key = null;
      this.pre.style.color = this.text !== null ? 'var(--muted)' : '';
      if (this.text === null) this.pre.textContent = WAITING;
      return;
    }
    this.pre.style.color = '';
    const key = JSON.stringify([run, snap.privacy.map((e) => e.summary)]);
    if (key === this.key) return;
    this.key = key;
    try {
      this.text = configuration.privacy_statement(snap.privacy);
      this.pre.textContent = this.text;
      setShownStatement(this.text, privacy_statement_line(snap.privacy));
    } catch (e) {
      setShownStatement(null, null);
      this.text = null;
      this.pre.textContent = `No statement for these settings: ${e.message}`;
    }
    this.button.disabled = this.text === null;
  }
}
