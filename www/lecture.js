// The lecture layout (issue 41): presenter view on a 16:9 screen shows, without scrolling, one chart
// at a time with its legend (the canvas as tall as the screen leaves it), the ε slider above it, and
// beside it the lesson's current step with its marks, its Previous / Set up / Next buttons and Run
// (style.css, `body.present`); a step too long for the screen scrolls in its box, Run stays in view.
// The other charts are one click (Previous / Next chart) or one key away (N or Page Down: next; P or
// Page Up: previous; outside a field). On a phone the slider docks at the bottom of the screen while
// the charts are in view and its own place is scrolled past, so the slider and the chart it drives
// are on screen together. main.js calls `wireLecture` once.

const WIDE = '(min-width: 62rem)';
const PHONE = '(max-width: 40rem)';
/** The slider of the list shown (the privacy target's switch hides the other list, slider and all). */
const SHOWN_SLIDER = '#fields .field.has-slider:not([hidden]) > .slider';

/**
 * @param {object} o
 * @param {() => object[]} o.views the shown scenario's ChartViews (each with `figure`, `canvas`, `info`, `redraw()`)
 * @param {() => boolean} o.present presenter view is on (the page state's)
 */
export function wireLecture({ views, present }) {
  const body = document.body;
  const wrap = document.querySelector('#results .charts-wrap');
  const lesson = document.getElementById('lesson');
  let index = 0;
  let ids = '';

  // The chart's place among them and the buttons that change it (beside the pin buttons), and the
  // bar over the charts that holds the slider in presenter view (moved here from its setting and
  // back when the view ends).
  const bar = document.createElement('div');
  bar.className = 'lecture-bar';
  const nav = document.createElement('div');
  nav.className = 'lecture-nav';
  nav.setAttribute('role', 'group');
  nav.setAttribute('aria-label', 'charts');
  const button = (text, name, keys, step) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', name);
    b.title = `${name} (${keys.replace(' ', ' or ')})`;
    b.setAttribute('aria-keyshortcuts', keys);
    b.addEventListener('click', () => show(index + step));
    return b;
  };
  const prev = button('‹ Previous', 'Previous chart', 'P PageUp', -1);
  const next = button('Next ›', 'Next chart', 'N PageDown', 1);
  const where = document.createElement('span');
  where.className = 'lecture-where';
  where.setAttribute('aria-live', 'polite');
  nav.append(prev, where, next);
  const dock = document.createElement('div');
  dock.className = 'lecture-slider';
  bar.append(dock);
  wrap.before(bar);
  // The chart buttons on the line of the pin buttons (one line less over the chart).
  document.querySelector('#results > .actions').append(nav);

  const wide = () => window.matchMedia(WIDE).matches;
  const lecturing = () => present() && wide();
  const shown = () => views().filter(Boolean);

  /** Shows chart `i` (wrapping) of the scenario's, in presenter view the only one. */
  function show(i) {
    const list = shown();
    if (!list.length) return;
    index = ((i % list.length) + list.length) % list.length;
    list.forEach((v, k) => v.figure.classList.toggle('lecture-current', k === index));
    where.textContent = `Chart ${index + 1}/${list.length}: ${list[index].info.name}`;
    prev.disabled = next.disabled = list.length < 2;
    fit();
    if (lecturing()) list[index].redraw();
  }

  /**
   * Presenter view on a wide screen: the slider of the shown setting (`.field.has-slider > .slider`)
   * over the chart; else back in its setting. A form built anew (another scenario) brings its own
   * slider: the one docked before is dropped.
   */
  function placeSlider() {
    const fresh = document.querySelector(SHOWN_SLIDER);
    const docked = dock.querySelector('.slider');
    if (docked && (fresh || !lecturing())) {
      // Back in its field while the form holds it (the privacy target switched lists), else dropped.
      const home = docked.lectureHome;
      if (home && home.isConnected) home.append(docked);
      else docked.remove();
    }
    if (fresh && lecturing()) {
      fresh.lectureHome = fresh.parentElement;
      dock.replaceChildren(fresh);
    }
  }

  /** The shown canvas as tall as the screen leaves it (presenter view on a wide screen). */
  let fitted = null;
  function fit() {
    fitLesson();
    if (!lecturing()) {
      if (fitted !== null) body.style.removeProperty('--lecture-canvas-h');
      fitted = null;
      return;
    }
    const v = shown()[index];
    if (!v) return;
    const canvas = v.figure.querySelector('canvas');
    const readout = v.figure.querySelector('.readout');
    const c = canvas.getBoundingClientRect();
    if (c.width === 0) return;
    const below = readout.getBoundingClientRect().bottom - c.bottom;
    const h = Math.max(240, Math.floor(window.innerHeight - (c.top + window.scrollY) - below - 10));
    if (h === fitted) return;
    fitted = h;
    body.style.setProperty('--lecture-canvas-h', `${h}px`);
    v.redraw();
  }

  /** The lesson no taller than leaves Run in view under it (a longer step scrolls in its box). */
  function fitLesson() {
    if (!lesson) return;
    if (!lecturing() || lesson.hidden) {
      lesson.style.maxHeight = '';
      return;
    }
    const form = document.getElementById('config').getBoundingClientRect();
    const run = document.getElementById('run').getBoundingClientRect();
    const top = lesson.getBoundingClientRect().top + window.scrollY;
    const under = form.top - lesson.getBoundingClientRect().bottom; // the gap between the two
    const most = Math.floor(window.innerHeight - top - under - (run.bottom - form.top) - 24);
    lesson.style.maxHeight = `${Math.max(160, most)}px`;
  }

  /** Presenter view entered or left, or the scenario changed: the lesson open, the first chart. */
  function update() {
    const now = shown().map((v) => v.id).join(' ');
    if (now !== ids) {
      ids = now;
      index = 0;
    }
    if (present() && lesson && !lesson.open) lesson.open = true;
    placeSlider();
    show(index);
  }

  new MutationObserver(update).observe(body, { attributes: true, attributeFilter: ['class', 'data-scenario'] });
  // A scenario's form is built anew (its slider with it); charts are added.
  new MutationObserver(() => { placeSlider(); }).observe(document.getElementById('fields'), { childList: true });
  new MutationObserver(update).observe(document.getElementById('charts'), { childList: true });
  // What lies above and under the canvas can change height (the status, a wrapped row): fit again.
  const sizes = new ResizeObserver(() => fit());
  sizes.observe(document.getElementById('results'));
  sizes.observe(bar);
  sizes.observe(document.getElementById('config'));
  window.addEventListener('resize', () => { placeSlider(); fit(); });

  document.addEventListener('keydown', (e) => {
    if (!lecturing() || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA|CANVAS)$/.test(t.tagName))) return;
    const step = { n: 1, N: 1, PageDown: 1, p: -1, P: -1, PageUp: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    show(index + step);
  });

  dockOnPhone();
  update();
}

/** On a phone: the slider docked at the bottom while the charts are in view and its place is above. */
function dockOnPhone() {
  const charts = document.getElementById('charts');
  let frame = null;
  const check = () => {
    frame = null;
    const s = document.querySelector(SHOWN_SLIDER);
    if (!s) return;
    const field = s.parentElement;
    const phone = window.matchMedia(PHONE).matches;
    const docked = s.classList.contains('docked');
    // Its place: the field's box (kept at its height while the slider is docked, so nothing moves).
    const place = field.getBoundingClientRect();
    const c = charts.getBoundingClientRect();
    const passed = place.bottom < 0;
    const chartsInView = c.top < window.innerHeight && c.bottom > 0;
    const want = phone && passed && chartsInView;
    if (want === docked) return;
    if (want) field.style.minHeight = `${place.height}px`;
    else field.style.minHeight = '';
    s.classList.toggle('docked', want);
  };
  const later = () => { if (frame === null) frame = requestAnimationFrame(check); };
  window.addEventListener('scroll', later, { passive: true });
  window.addEventListener('resize', later);
}
