// Runs each benchmark in its own fresh worker (so memory is per benchmark) and
// exposes the results as window.benchResults for scripts/bench-browser.mjs.
function once(worker, message) {
  return new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => resolve({ error: e.message || 'worker error' });
    worker.postMessage(message);
  });
}

async function runAll(only) {
  document.body.dataset.status = 'running';
  const out = document.getElementById('out');
  const probe = new Worker(new URL('./bench-worker.js', import.meta.url), { type: 'module' });
  const { names } = await once(probe, { name: '__names' });
  probe.terminate();
  const results = [];
  for (const name of names.filter((n) => !only || only.includes(n))) {
    const worker = new Worker(new URL('./bench-worker.js', import.meta.url), { type: 'module' });
    // Up to 3 runs; a run that takes seconds is timed once (the worker stops there).
    const r = await once(worker, { name, repeat: 3 });
    worker.terminate();
    results.push(r);
    out.textContent += `${JSON.stringify(r)}\n`;
  }
  window.benchResults = results;
  document.body.dataset.status = 'done';
  return results;
}

window.runBenchmarks = runAll;
document.getElementById('run').addEventListener('click', () => runAll());
