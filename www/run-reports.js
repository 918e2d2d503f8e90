// What the page says and draws of a run's reports (run.js's hooks): its progress in the status line
// and the progress bar, its results drawn (results-view.js), and how it ended.
import { showError } from './status.js';
import { plotsEpsilon } from './live-eps.js';
import { STALE_RUNNING } from './edits.js';

const $ = (id) => document.getElementById(id);

/** The hooks of page `page` (main.js's) for run.js. */
export function runReports(page) {
  const stale = () => page.runs.outOfDate(page.state.settings());
  return {
    progress: (p) => {
      if (p.changed) page.results.renderSoon(p.snapshot);
      $('progress').max = Math.max(1, p.total);
      $('progress').value = p.done;
      page.setStatus('running', `${stale() ? STALE_RUNNING : ''}Running: ${p.phase} (${p.done}/${p.total})`);
    },
    result: (snap, seconds, token) => {
      page.results.render(snap, () => {
        if (!page.runs.finish(token)) return; // a newer run has started meanwhile
        performance.mark('dp-done');
        page.results.setExportsEnabled(true);
        // A run whose settings were edited while it ran is of the previous settings: it says so.
        const edited = stale();
        page.edits.markStale();
        page.setStatus('done', edited
          ? `Done in ${seconds.toFixed(2)} s, for the previous settings: they changed during the run. Press Run to update.`
          : `Done in ${seconds.toFixed(2)} s.`);
        if (page.state.selected) for (const v of page.scenes.currentViews()) if (plotsEpsilon(v)) v.redraw();
      });
    },
    cancelled: (partial) => {
      page.results.endReplacing();
      if (partial) {
        page.results.render(partial, () => page.results.setExportsEnabled(true));
        page.setStatus('idle', 'Stopped. The finished part of the sweep is shown (partial results; the CSV holds the finished runs).');
      } else {
        page.results.redraw();
        page.setStatus('idle', 'Stopped before any run finished.');
      }
    },
    error: (message) => {
      page.results.endReplacing();
      page.setStatus('error', 'The run failed; the page is still usable.');
      showError(message);
    },
  };
}
