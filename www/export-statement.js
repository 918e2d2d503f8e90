// The privacy statement of the finished run shown, carried into the page's
// exports: whole in the JSON export (key `privacy_statement`, which the CLI's
// --config skips), and in one line (mechanism, relation, ε spent at δ,
// accountant: the wasm `privacy_statement_line`, the footer the CLI's SVG
// charts carry) under PNG and SVG charts. The statement panel sets it when a
// finished run's statement is shown and clears it when a run starts, so an
// export never carries another run's guarantee.

let shown = { text: null, line: null };

/** Sets (or, with nulls, clears) the statement of the finished run shown. */
export function setShownStatement(text, line) {
  shown = { text: text || null, line: line || null };
}

/** The JSON export's entry: `{ privacy_statement }`, or nothing without a finished run. */
export function statementEntry() {
  return shown.text ? { privacy_statement: shown.text } : {};
}

/** The footer line of an SVG export (undefined: none). */
export function svgFooter() {
  return shown.line || undefined;
}

/** `text`'s words in lines at most `max` wide in `ctx`'s font. */
function wrap(ctx, text, max) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const trial = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(trial).width > max) {
      lines.push(line);
      line = word;
    } else {
      line = trial;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Calls `done(blob)` with `canvas` as a PNG, the footer line written in a strip
 * under it (at the canvas's own pixel scale); without a statement, the canvas as it is.
 */
export function pngWithFooter(canvas, done) {
  if (!shown.line) {
    canvas.toBlob(done, 'image/png');
    return;
  }
  const scale = canvas.clientWidth ? canvas.width / canvas.clientWidth : window.devicePixelRatio || 1;
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  const font = `${Math.round(12 * scale)}px sans-serif`;
  ctx.font = font;
  const margin = 10 * scale;
  const lines = wrap(ctx, shown.line, canvas.width - 2 * margin).slice(0, 3);
  const lineHeight = Math.round(15 * scale);
  out.width = canvas.width;
  out.height = canvas.height + lines.length * lineHeight + 12 * scale;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  ctx.font = font; // resizing the canvas reset it
  ctx.fillStyle = '#464646';
  ctx.textBaseline = 'top';
  lines.forEach((l, i) => ctx.fillText(l, margin, canvas.height + 6 * scale + i * lineHeight));
  out.toBlob(done, 'image/png');
}
