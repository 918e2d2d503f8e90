// Offline use of the hosted site: registers its service worker (sw.js; only
// where the build marked the page with data-sw, i.e. dist/, so a developer's
// edits in www/ are never served from a cache), and says when a new release
// arrives: "downloaded, used from the next visit" during the visit that finds
// it, and "updated since your last visit" on the next one.

const KEY = 'dp-explorer-version';
const PREFIX = 'dp-explorer-'; // sw.js names its cache PREFIX + version
const DOWNLOADED = 'A new version of DP Explorer was downloaded: it is used from your next visit.';

function say(text, reload) {
  const note = document.getElementById('update-note');
  if (!note) return;
  note.querySelector('span').textContent = text;
  note.querySelector('button').hidden = !reload;
  note.hidden = false;
}

function offlineSite() {
  return document.documentElement.dataset.sw && 'serviceWorker' in navigator;
}

/**
 * Listens, from the module's first statement, for a new release taking over this page. The browser checks
 * for one soon after the page's own files arrive, which on a slow machine can finish while the module still
 * starts: a listener added at registration would miss it.
 */
export function watchForRelease() {
  if (!offlineSite()) return;
  const controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled) say(DOWNLOADED, true);
  });
}

/** Whether a release other than this page's owns the site's cache: the service worker of a newer one took over. */
async function replacedByNewRelease(running) {
  if (!running || !navigator.serviceWorker.controller || !('caches' in self)) return false;
  const ours = (await caches.keys()).filter((k) => k.startsWith(PREFIX));
  return ours.length > 0 && !ours.includes(PREFIX + running);
}

export function registerOffline() {
  if (!offlineSite()) return;
  const root = document.documentElement;
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
  // Belt and braces with watchForRelease: a release that took over before it ran left only its own cache.
  replacedByNewRelease(running).then((yes) => { if (yes) say(DOWNLOADED, true); }, () => {});
  navigator.serviceWorker.register(root.dataset.sw, { updateViaCache: 'none' }).catch((e) => {
    console.warn(`offline use is not available: ${e.message || e}`);
  });
}
