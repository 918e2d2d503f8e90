// The switch "privacy target: ε / attacker's success" beside the target field,
// for a scenario whose field table has both `epsilons` and `risks` (Rust's
// field/target.rs): it shows the list that drives the run and hides the other.
// The state is the settings' own: risks other than "none" drive the run, so
// the address (which holds the risks) keeps it, and a link opens with it.

import { risksDrive } from './page-state.js';

/** The risks put in when the switch turns to attacker's success with none set. */
const DEFAULT_RISKS = '0.05,0.1,0.2';

/** The field's wrapper (its label, input, slider and error slot). */
function wrapperOf(name) {
  const el = document.getElementById(name);
  return el ? el.closest('.field') : null;
}

/** Shows the field(s) of the target in use, hides the others. */
function showTarget(risk) {
  const eps = wrapperOf('epsilons');
  if (eps) eps.hidden = risk;
  for (const name of ['risks', 'risk_fpr']) {
    const w = wrapperOf(name);
    if (w) w.hidden = !risk;
  }
  for (const r of document.querySelectorAll('input[name="privacy-target"]')) r.checked = (r.value === 'risk') === risk;
}

/**
 * Adds the switch before the ε list of the form built in `root` (nothing when the scenario has no
 * risks field). Returns `sync()`, which sets it from the form's values (after a fill).
 */
export function addTargetSwitch(root) {
  const eps = wrapperOf('epsilons');
  const risksInput = document.getElementById('risks');
  if (!eps || !risksInput || !root.contains(eps)) return () => {};
  const fs = document.createElement('fieldset');
  fs.className = 'target-switch field wide';
  fs.id = 'privacy-target';
  const legend = document.createElement('legend');
  legend.textContent = 'privacy target';
  fs.appendChild(legend);
  for (const [value, text] of [['epsilon', 'ε'], ['risk', "attacker's success"]]) {
    const label = document.createElement('label');
    const radio = document.createElement('input');
    radio.type = 'radio';
    radio.name = 'privacy-target';
    radio.value = value;
    radio.id = `privacy-target-${value}`;
    radio.addEventListener('change', () => {
      const risk = value === 'risk';
      // The risks are the switch's state: "none" lets the ε list drive.
      if (risk && !risksDrive({ risks: risksInput.value })) risksInput.value = DEFAULT_RISKS;
      if (!risk) risksInput.value = 'none';
      showTarget(risk);
      risksInput.dispatchEvent(new Event('input', { bubbles: true }));
    });
    label.append(radio, ` ${text}`);
    fs.appendChild(label);
  }
  // The risks and their false-positive rate go beside the ε list, in the same place.
  eps.before(fs);
  const risks = wrapperOf('risks');
  const fpr = wrapperOf('risk_fpr');
  if (risks) eps.after(risks);
  if (risks && fpr) risks.after(fpr);
  const sync = () => showTarget(risksDrive({ risks: risksInput.value }));
  risksInput.addEventListener('change', sync);
  sync();
  return sync;
}
