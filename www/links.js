// The page's two screens: large text and presenter view (early.js applies a link's before the first
// paint; their boxes keep them after), and their links, from the address (which main.js keeps equal to the settings):
// "Copy link" gives the students' link (the settings, without large text or presenter view), "Copy
// presenter link" the projector's (the same settings, large text and presenter view on).
const MODES = ['large', 'present'];

/** `href` as the students' link, or with `presenter` the presenter's. */
export function screenLink(href, presenter) {
  const url = new URL(href);
  for (const mode of MODES) {
    if (presenter) url.searchParams.set(mode, '1');
    else url.searchParams.delete(mode);
  }
  return url.href;
}

/**
 * Wires the two copy buttons. `update()` brings the address up to date before a copy; `note()` is
 * what to add to the message (that the link holds edits the results on screen do not show, or '').
 */
export function wireLinks({ update, note }) {
  const say = document.getElementById('link-note');
  for (const [id, presenter, what] of [
    ['copy-link', false, 'Link for the students copied (without large text or presenter view).'],
    ['copy-presenter-link', true, 'Presenter link copied (large text and presenter view on).'],
  ]) {
    document.getElementById(id).addEventListener('click', async () => {
      update();
      const link = screenLink(location.href, presenter);
      const extra = note();
      try {
        await navigator.clipboard.writeText(link);
        say.textContent = `${what}${extra}`;
      } catch {
        say.textContent = `Copying was not allowed: copy this link: ${link}${extra}`;
      }
    });
  }
}

/** Large text or presenter view (`name`: 'large' or 'present') on or off, with its box. */
export function setMode(name, on) {
  document.getElementById(name === 'large' ? 'large-text' : 'present').checked = on;
  document.body.classList.toggle(name, on);
  document.documentElement.classList.toggle(name, on);
}

/** The two boxes: a change is kept (`set(name, on)`: the page state, which applies it with `setMode`),
 * kept in the address (`update`) and the charts drawn again (`redraw`). */
export function wireModes({ set, update, redraw }) {
  for (const [name, id] of [['large', 'large-text'], ['present', 'present']]) {
    document.getElementById(id).addEventListener('change', (e) => {
      set(name, e.target.checked);
      update();
      redraw();
    });
  }
}

/** A link's preset the registry does not have, in words (`first`: its first letter, for a sentence). */
export function missingPresetText(name, first = 'n') {
  return `${first}o preset named “${name.slice(0, 40)}”: showing the default`;
}
