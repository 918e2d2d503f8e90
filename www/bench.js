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
    // The n = 10⁶ run, the paper-size DP-GD and the dense kernels take long
    // enough to be timed once.
    const r = await once(worker, { name, repeat: name.endsWith('-1m') || name.startsWith('dpgd-paper') || name.startsWith('dense-') ? 1 : 3 });
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
