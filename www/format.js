// Numbers for people: the page's one number format (4 significant digits,
// scientific below 1e-3 and from 1e6, as the Rust tables).

/** A number as text: '—' for missing or NaN, '∞' for +∞. */
export function fmt(x, digits = 4) {
  if (x === undefined || x === null) return '—';
  if (typeof x !== 'number') return String(x);
  if (Number.isNaN(x)) return '—';
  if (x === Infinity) return '∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-3) {
    const [m, e] = x.toExponential(digits - 1).split('e');
    return `${Number(m)}e${Number(e)}`;
  }
  return Number(x.toPrecision(digits)).toString();
}

/** An axis label without its parenthesised detail: "excess risk (mean)" → "excess risk". */
export function shortLabel(label) {
  return String(label).replace(/\s*\(.*\)\s*$/, '');
}
