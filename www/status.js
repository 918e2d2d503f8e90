// The status line, the Run/Stop buttons' state and the error box. Until the module has loaded
// (`ready()` false) nothing can run: an idle status reads as loading.
const $ = (id) => document.getElementById(id);
export const LOADING_TEXT = 'Loading the module…';

/** The status shown (`name`: idle, loading, running, done, error) and its words: kept here, never read back. */
export const statusNow = { name: 'loading', text: '' };

/** The status line's text (its box shows its first lines: the whole text is also its title). */
export function sayStatus(text) {
  statusNow.text = text;
  $('status').textContent = text;
  $('status').title = text;
}

/** A status (`idle`, `loading`, `running`, `done`, `error`) and its words; `ready`: the module has loaded. */
export function setStatusOf(ready, status, text) {
  if (!ready && status === 'idle') [status, text] = ['loading', LOADING_TEXT];
  statusNow.name = status;
  document.body.dataset.status = status;
  sayStatus(text);
  const runWasFocused = document.activeElement === $('run');
  const stopWasFocused = document.activeElement === $('stop');
  $('run').disabled = !ready || status === 'running' || status === 'loading';
  $('stop').disabled = status !== 'running';
  // Keep the keyboard focus on a control when the focused button disables itself.
  if (runWasFocused && $('run').disabled) $('stop').focus({ preventScroll: true });
  if (stopWasFocused && $('stop').disabled) $('run').focus({ preventScroll: true });
}

/** The error box: shown with `message`, hidden without. */
export function showError(message) {
  const el = $('error');
  el.textContent = message || '';
  el.hidden = !message;
}
