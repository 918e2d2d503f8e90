// The scenario shown: the presets menu (every scenario's, from the registry), the charts' figures
// (built the first time a scenario is shown; others hidden), its texts and its form. Which scenario
// is shown follows the page state's preset (main.js `loadPreset`).
import { ChartView } from './chart-view.js';

const $ = (id) => document.getElementById(id);

export class ScenarioView {
  /**
   * @param {object} page main.js's page (`form`, `results`, `roundView`, `audit`, `lesson`, `textScale()`)
   */
  constructor(page) {
    this.page = page;
    this.infos = []; // every ScenarioInfo, in registry order
    this.info = null; // the current scenario
    this.views = new Map(); // chart id -> ChartView (every scenario's shown so far; others hidden)
  }

  /** The menu of every scenario's presets, and the sources named under the page. */
  buildPresetMenu(infos) {
    this.infos = infos;
    $('preset').replaceChildren(...infos.map((s) => {
      const group = document.createElement('optgroup');
      group.label = s.title;
      for (const p of s.presets) {
        const opt = document.createElement('option');
        opt.value = p.name;
        opt.textContent = p.label;
        group.appendChild(opt);
      }
      return group;
    }));
    $('sources').textContent = infos.map((s) => s.source).join('; ');
  }

  /** The figures of one scenario's charts, built the first time it is shown (a
   * page shows one scenario: building every scenario's would hold the first paint). */
  buildCharts(s) {
    const { results } = this.page;
    for (const chart of s.charts) {
      if (this.views.has(chart.id)) continue;
      const view = new ChartView(chart, {
        textScale: () => this.page.textScale(),
        decorate: (id, spec) => results.decorate(id, spec),
        afterDraw: (v, ctx) => results.afterDraw(v, ctx),
      });
      view.figure.dataset.scenario = s.id;
      view.figure.hidden = true;
      this.views.set(chart.id, view);
      $('charts').appendChild(view.figure);
    }
  }

  currentViews() {
    return this.info ? this.info.charts.map((c) => this.views.get(c.id)) : [];
  }

  /** Shows one scenario's fields, charts and texts; true if it changed. */
  apply(id) {
    if (this.info && this.info.id === id) return false;
    const { page } = this;
    const info = this.infos.find((s) => s.id === id);
    this.info = info;
    page.state.selected = null;
    page.runs.previous = null;
    this.buildCharts(info);
    page.roundView.scenario(info);
    document.body.dataset.scenario = id;
    $('scenario-look').textContent = info.look_at;
    $('scenario-lede').textContent = info.lede;
    $('about-title').textContent = `About ${info.title}`;
    page.form.build(info);
    for (const v of this.views.values()) v.figure.hidden = v.figure.dataset.scenario !== id;
    page.results.clearResults('Run a sweep to see its accounting.');
    if (page.audit) page.audit.clear();
    page.lesson.start();
    return true;
  }
}
