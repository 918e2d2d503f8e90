// Serves dist/ as a real host does: the precompressed .br or .gz beside a file when the browser accepts it
// (Content-Encoding), assets named by content hash cached for a year (immutable), other files for 10 minutes
// (as GitHub Pages does; the browser checks the service worker past that cache). For Lighthouse and for trying the hosted build (docs/performance.md):
//   node scripts/serve-dist.mjs [PORT]     (default 8080; HOST=0.0.0.0 to serve beyond this machine)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const ROOT = process.env.DIST_DIR ? join(process.env.DIST_DIR, '/') : new URL('../dist/', import.meta.url).pathname;
const PORT = Number(process.argv[2] || process.env.PORT || 8080);
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};

async function exists(path) {
  try { return (await stat(path)).isFile(); } catch { return false; }
}

createServer(async (req, res) => {
  try {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(ROOT, path));
    if (!file.startsWith(ROOT) || !(await exists(file))) throw new Error('not found');
    const accepts = String(req.headers['accept-encoding'] || '');
    let body = file;
    let encoding = null;
    if (/\bbr\b/.test(accepts) && await exists(`${file}.br`)) [body, encoding] = [`${file}.br`, 'br'];
    else if (/\bgzip\b/.test(accepts) && await exists(`${file}.gz`)) [body, encoding] = [`${file}.gz`, 'gzip'];
    const headers = {
      'content-type': TYPES[extname(file)] || 'application/octet-stream',
      'cache-control': /\.[0-9a-f]{10}\.[a-z]+$/.test(file) ? 'public, max-age=31536000, immutable' : 'public, max-age=600',
      vary: 'accept-encoding',
    };
    if (encoding) headers['content-encoding'] = encoding;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : await readFile(body));
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}).listen(PORT, process.env.HOST || '127.0.0.1', () => {
  console.log(`dist/ is served at http://${process.env.HOST || '127.0.0.1'}:${PORT}/ (precompressed)`);
});
