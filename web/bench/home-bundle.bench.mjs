// The JavaScript a browser loads for /home: the entry of web/dist/index.html, the /home route and the
// main layout route, with every chunk they import statically. Prints raw and gzip bytes per chunk, and
// whether the gzip total meets the 150 KiB budget.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(webRoot, 'dist');
const assets = path.join(dist, 'assets');

function build() {
  console.log('> building the web app for production');
  const result = spawnSync('npm', ['run', 'build'], { cwd: webRoot, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const entryOf = () =>
  /<script[^>]+type="module"[^>]+src="\/assets\/([^"]+\.js)"/.exec(readFileSync(path.join(dist, 'index.html'), 'utf8'))?.[1];

if (!existsSync(path.join(dist, 'index.html'))) build();
// A bundle made with NODE_ENV other than production carries React's development build: measure a real one.
if (/\bjsxDEV\(/.test(readFileSync(path.join(assets, entryOf()), 'utf8'))) build();

const entry = entryOf();
const routeChunk = (name) => {
  const file = readdirSync(assets).find((f) => f.startsWith(`${name}-`) && f.endsWith('.js') && /^[\w-]+-[\w-]{8}\.js$/.test(f));
  if (!file) throw new Error(`no chunk for the ${name} route in ${assets}`);
  return file;
};

/** A chunk and every chunk it imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function closure(start, seen = new Set()) {
  if (seen.has(start)) return seen;
  seen.add(start);
  const code = readFileSync(path.join(assets, start), 'utf8');
  for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)) closure(match[1], seen);
  return seen;
}

const files = new Set([entry, routeChunk('main-layout'), routeChunk('home')].flatMap((file) => [...closure(file)]));
const rows = [...files]
  .map((file) => {
    const code = readFileSync(path.join(assets, file));
    return { file, raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`\nJavaScript loaded for /home (${rows.length} chunks):`);
for (const row of rows) console.log(`  ${row.file.padEnd(44)} ${String(row.raw).padStart(8)} B  gzip ${String(row.gzip).padStart(7)} B`);
const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
console.log(`home JS total: ${total.raw} bytes (${kb(total.raw)}), gzip ${total.gzip} bytes (${kb(total.gzip)})`);

const BUDGET_GZIP = 150 * 1024;
const pass = total.gzip <= BUDGET_GZIP;
const margin = Math.abs(BUDGET_GZIP - total.gzip);
console.log(
  `${pass ? 'PASS' : 'FAIL'}: home JS gzip ${kb(total.gzip)} against the ${kb(BUDGET_GZIP)} budget (${kb(margin)} ${pass ? 'to spare' : 'over'})`,
);
