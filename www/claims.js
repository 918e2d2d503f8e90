// Claims that check themselves: a caption or a lesson step says what a chart
// shows, and after a run Rust judges each of its claims on the run's numbers
// (`View.claims`: { id, text, status, numbers }). This module draws the marks:
// one list item per claim, held / not held / not decided in this run, with
// the numbers that decided it. A claim that does not hold is shown, never
// hidden: a learner who moved a setting until it broke has learned something.

const MARKS = {
  held: ['✓', 'Holds in this run'],
  'not-held': ['✗', 'Does not hold in this run'],
  undecided: ['–', 'Not decided by this run'],
};

/** A `<ul class="claims">` for these claim ids (filled by `showClaims`). */
export function claimsList(ids) {
  const ul = document.createElement('ul');
  ul.className = 'claims';
  ul.hidden = ids.length === 0;
  ul.dataset.ids = ids.join(' ');
  return ul;
}

/**
 * Fills `ul` with the verdicts of its claim ids (`verdicts`: a finished run's
 * `claims`, or null before any finished run: each claim says it is checked
 * after a run). `texts` maps an id to its sentence (ScenarioInfo.claims).
 */
export function showClaims(ul, verdicts, texts) {
  const ids = (ul.dataset.ids || '').split(' ').filter(Boolean);
  ul.hidden = ids.length === 0;
  ul.replaceChildren();
  for (const id of ids) {
    const v = verdicts && verdicts.find((x) => x.id === id);
    const li = document.createElement('li');
    li.dataset.claim = id;
    li.dataset.status = v ? v.status : 'pending';
    const mark = document.createElement('span');
    mark.className = 'claim-mark';
    mark.setAttribute('aria-hidden', 'true');
    const say = document.createElement('span');
    if (v) {
      const [symbol, words] = MARKS[v.status] || MARKS.undecided;
      mark.textContent = symbol;
      say.textContent = `${words}: ${v.text} (${v.numbers})`;
    } else {
      mark.textContent = '·';
      say.textContent = `Checked after a run: ${texts.get(id) || id}`;
    }
    li.append(mark, say);
    ul.append(li);
  }
}
