// Scrolling a folder of 5,000 files in Chromium: starts the real server, uploads 5,000 files, pages them all
// in (one request per page), then scrolls the whole list at a steady speed in grid and in list view and
// reports the frame intervals measured with requestAnimationFrame.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const FILES = 5000;
const PIXELS_PER_FRAME = 120;
const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'web', 'dist');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromiumPath)) {
  console.log(`scroll-5000: skipped, no Chromium at ${chromiumPath}`);
  process.exit(0);
}
const entry = /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(path.join(dist, 'index.html'), 'utf8'))?.[1];
if (!entry || /\bjsxDEV\(/.test(readFileSync(path.join(dist, 'assets', entry), 'utf8'))) {
  const built = spawnSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) process.exit(1);
}

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'nimbus-scroll-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [path.join(root, 'server', 'dist', 'main.js')], {
  cwd: root,
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    WEB_ROOT: dist,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let browser;

try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // An account and a folder of 5,000 small files, through the API.
  const uuid = randomUUID();
  let cookie = '';
  const call = async (method, url, body) => {
    const response = await fetch(baseUrl + url, {
      method,
      headers: { uuid, cookie, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
    const set = response.headers.getSetCookie();
    if (set.length) cookie = set.map((c) => c.split(';')[0]).join('; ');
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const email = `scroll-${uuid.slice(0, 8)}@example.com`;
  const password = 'correct-horse-1';
  await call('POST', '/user-service/create', { email, password });
  const folder = await call('POST', '/folder-service/create', { name: 'Five thousand', parent: '/' });
  const seedStart = Date.now();
  for (let batch = 0; batch < FILES / 1000; batch++) {
    const form = new FormData();
    form.append('parent', folder._id);
    form.append('total-files', '1000');
    const names = Array.from({ length: 1000 }, (_, i) => `scan-${String(batch * 1000 + i).padStart(4, '0')}.pdf`);
    names.forEach((name, index) => form.append('file-data', JSON.stringify({ name, size: 4, type: 'application/pdf', path: name, index })));
    names.forEach((name) => form.append('file', new Blob(['%PDF']), name));
    await call('POST', '/folder-service/upload', form);
  }
  console.log(
    `scroll-5000: load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  console.log(`scroll-5000: uploaded ${FILES} files in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  await page.goto('/');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL('**/home');

  let listCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/file-service/list')) listCalls++;
  });
  await page.goto(`/folder/${folder._id}`);
  await page.locator('[aria-label="Files"] [role="option"]').first().waitFor();
  const scroller = page.getByTestId('browser-scroll');
  const count = () => page.locator('section[data-file-count]').getAttribute('data-file-count');
  const loadStart = Date.now();
  while ((await count()) !== String(FILES)) {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(50);
    if (Date.now() - loadStart > 300_000) throw new Error(`only ${await count()} files loaded`);
  }
  await page.waitForTimeout(500);
  console.log(`scroll-5000: paged in ${FILES} files with ${listCalls} list requests in ${((Date.now() - loadStart) / 1000).toFixed(1)} s`);

  /** Scrolls from top to bottom by a fixed step per animation frame and returns the frame intervals. */
  const measure = () =>
    scroller.evaluate(
      (el, step) =>
        new Promise((resolve) => {
          el.scrollTop = 0;
          const deltas = [];
          let last = 0;
          const longTasks = [];
          const observer =
            typeof PerformanceObserver !== 'undefined'
              ? new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)))
              : null;
          try {
            observer?.observe({ type: 'longtask', buffered: false });
          } catch {
            // Long task timing is optional.
          }
          const frame = (now) => {
            if (last) deltas.push(now - last);
            last = now;
            if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) {
              observer?.disconnect();
              resolve({ deltas, longTasks, height: el.scrollHeight, rendered: el.querySelectorAll('[role="option"],[role="row"]').length });
              return;
            }
            el.scrollTop += step;
            globalThis.requestAnimationFrame(frame);
          };
          globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(frame));
        }),
      PIXELS_PER_FRAME,
    );

  const report = (view, { deltas, longTasks, height, rendered }) => {
    const sorted = [...deltas].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const interval = at(0.5);
    const dropped = deltas.filter((d) => d > interval * 1.5).length;
    console.log(
      `scroll-5000 ${view}: ${deltas.length} frames over ${height} px (${PIXELS_PER_FRAME} px/frame), frame interval median ${interval.toFixed(1)} ms, ` +
        `p95 ${at(0.95).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms; ` +
        `dropped frames (> 1.5× median) ${dropped} (${((dropped / deltas.length) * 100).toFixed(2)} %), long tasks ${longTasks.length}; ` +
        `${rendered} items in the DOM`,
    );
  };

  // The same scroll over an empty element of the same height: what this machine drops without any app work.
  const baseline = await page.evaluate(
    ({ height, step }) =>
      new Promise((resolve) => {
        const el = globalThis.document.createElement('div');
        el.style.cssText = 'position:fixed;inset:0;overflow-y:auto;z-index:9999;background:white';
        el.innerHTML = `<div style="height:${height}px;background:repeating-linear-gradient(#fff 0 100px,#eef 100px 200px)"></div>`;
        globalThis.document.body.appendChild(el);
        const deltas = [];
        let last = 0;
        const frame = (now) => {
          if (last) deltas.push(now - last);
          last = now;
          if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) {
            el.remove();
            resolve({ deltas, longTasks: [], height, rendered: 0 });
            return;
          }
          el.scrollTop += step;
          globalThis.requestAnimationFrame(frame);
        };
        globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(frame));
      }),
    { height: await scroller.evaluate((el) => el.scrollHeight), step: PIXELS_PER_FRAME },
  );
  report('baseline (empty element, same height)', baseline);
  report('grid', await measure());
  await page.getByRole('button', { name: 'List view' }).click();
  await page.locator('[role="grid"] [role="row"][aria-selected]').first().waitFor();
  report('list', await measure());
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
