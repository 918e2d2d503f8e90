// The lesson: a few steps per scenario (from the registry), each a text, the claims it states (marked
// from the shown run) and the settings it applies; the step shown is the page state's `lessonStep`.
import { claimsList, showClaims } from './claims.js';

const $ = (id) => document.getElementById(id);

export class Lesson {
  /** @param {object} page main.js's page (`state`, `scenes`, `results`, `form`, `reg`, `loadPreset`, `edits`) */
  constructor(page) {
    this.page = page;
    const { state } = page;
    $('lesson-prev').addEventListener('click', () => { state.lessonStep = Math.max(0, state.lessonStep - 1); this.show(); });
    $('lesson-next').addEventListener('click', () => {
      state.lessonStep = Math.min(page.scenes.info.lesson.length - 1, state.lessonStep + 1);
      this.show();
    });
    $('lesson-apply').addEventListener('click', () => this.apply());
  }

  /** The scenario's first step (a scenario was just shown). */
  start() {
    this.page.state.lessonStep = 0;
    this.show();
  }

  show() {
    const { info } = this.page.scenes;
    const at = this.page.state.lessonStep;
    const steps = info.lesson;
    $('lesson').hidden = steps.length === 0;
    if (!steps.length) return;
    const step = steps[at];
    $('lesson-title').textContent = `Lesson: ${info.title} in ${steps.length} steps`;
    $('lesson-count').textContent = `Step ${at + 1} of ${steps.length}`;
    $('lesson-step-title').textContent = step.title;
    $('lesson-text').textContent = step.text;
    const marks = claimsList(step.claims);
    marks.id = 'lesson-claims';
    $('lesson-claims').replaceWith(marks);
    const { results } = this.page;
    showClaims(marks, results.finishedClaims(), results.claimTexts());
    $('lesson-prev').disabled = at === 0;
    $('lesson-next').disabled = at === steps.length - 1;
  }

  /** Sets the controls as the step says (its preset, then its settings) and runs them when short. */
  apply() {
    const { page } = this;
    const keep = page.state.lessonStep;
    const step = page.scenes.info.lesson[keep];
    page.loadPreset(step.preset);
    page.state.lessonStep = keep;
    this.show();
    page.form.fill(step.settings);
    // A step that changes a folded setting opens "More settings": what the step set is seen.
    page.form.revealChanged(page.reg.preset_fields(step.preset));
    page.edits.settingsChanged({ now: true });
  }
}
