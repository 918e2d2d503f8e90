// The scenarios' descriptions without the wasm module: `pkg/describe.json`, written at build time from the
// registry by the module's `describe_json()` in node, the bytes of `dp-explorer describe --json` (presets, field tables, charts, lessons, each preset's settings
// and empty charts). The page paints its menu, lede, form, lesson and chart titles from it at once, while the
// module loads; it answers the few registry questions painting asks (the module's `scenarios`,
// `default_preset`, `find_preset`, `preset_fields`) the way the module does. No scenario is named here.

/** The description, or null when the file is missing (the page then paints once the module has loaded). */
export async function loadDescription() {
  try {
    const response = await fetch(new URL('./pkg/describe.json', import.meta.url));
    if (!response.ok) return null;
    const d = await response.json();
    return Array.isArray(d.scenarios) && d.scenarios.length ? d : null;
  } catch {
    return null;
  }
}

/** The registry questions of painting, answered from a description. */
export function describedRegistry(d) {
  const owner = new Map(); // lower-case preset name -> [scenario, preset]
  for (const s of d.scenarios) for (const p of s.presets) owner.set(p.name.toLowerCase(), [s, p.name]);
  const lookup = (name) => {
    const found = owner.get(String(name).trim().toLowerCase());
    if (!found) throw new Error(`unknown preset "${String(name).slice(0, 40)}"`);
    return found;
  };
  return {
    scenarios: () => d.scenarios,
    default_preset: () => d.default_preset,
    find_preset: (name) => {
      const [s, preset] = lookup(name);
      return { scenario: s.id, preset };
    },
    preset_fields: (name) => {
      const [s, preset] = lookup(name);
      return s.preset_settings[preset].fields;
    },
    /** The preset's charts before any run (title, axis names), in the scenario's chart order. */
    preset_charts: (name) => {
      const [s, preset] = lookup(name);
      return s.preset_settings[preset].charts;
    },
    audit_charts: () => d.audit_charts,
  };
}
