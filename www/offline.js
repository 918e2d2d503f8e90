// Offline use of the hosted site: registers its service worker (sw.js; only
// where the build marked the page with data-sw, i.e. dist/, so a developer's
// edits in www/ are never served from a cache), and says when a new release
// arrives: "downloaded, used from the next visit" during the visit that finds
// it, and "updated since your last visit" on the next one.

const KEY = 'dp-explorer-version';

function say(text, reload) {
  const note = document.getElementById('update-note');
  if (!note) return;
  note.querySelector('span').textContent = text;
  note.querySelector('button').hidden = !reload;
  note.hidden = false;
}

export function registerOffline() {
  const root = document.documentElement;
  const script = root.dataset.sw;
  if (!script || !('serviceWorker' in navigator)) return;
  const running = root.dataset.version || '';
  let seen = null;
  try {
    seen = localStorage.getItem(KEY);
    localStorage.setItem(KEY, running);
  } catch {
    // storage off: no "updated" note
  }
  if (seen && running && seen !== running) {
    say(`DP Explorer was updated since your last visit (version ${running.slice(0, 8)}).`, false);
  }
  const note = document.getElementById('update-note');
  if (note) {
    note.querySelector('button').addEventListener('click', () => location.reload());
    note.querySelector('.close').addEventListener('click', () => { note.hidden = true; });
  }
  // A page already controlled whose controller changes: a new release was installed.
  const controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled) say('A new version of DP Explorer was downloaded: it is used from your next visit.', true);
  });
  navigator.serviceWorker.register(script, { updateViaCache: 'none' }).catch((e) => {
    console.warn(`offline use is not available: ${e.message || e}`);
  });
}
