// `node scripts/screenshot.mjs [--no-build]`: the picture of the web app in the README. Starts the
// built server on a fresh data directory and a free port from 3900 on, signs up a demo account
// through the API, uploads a few folders, photos and documents, opens /home in headless Chromium at
// 1280×800 and saves docs/images/drive.png; then stops the browser and the server and removes the
// data. `--no-build` uses the server and web app as built (WEB_ROOT, when set, names the web app).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, ensureDependencies, root } from './lib.mjs';
import { serverEnv, serverNodeArgs } from './server-runtime.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags the browser tests start Chromium with: no sandbox (root in a container), no GPU, and
// none of the background traffic a fresh profile would start.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VIEWPORT = { width: 1280, height: 800 };
const OUTPUT = path.join(root, 'docs', 'images', 'drive.png');
const FIRST_PORT = 3900;

if (!process.argv.includes('--no-build')) {
  ensureDependencies();
  ensureBuilt();
}
const serverMain = path.join(root, 'server', 'dist', 'main.js');
if (!existsSync(serverMain)) {
  console.error(`${serverMain} is missing: build first (npm run build)`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`Chromium is missing at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  process.exit(1);
}
// Loaded after the install step, which may be what brings them.
const { chromium } = await import('playwright-core');
const { default: sharp } = await import('sharp');

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePort() {
  for (let port = FIRST_PORT; port < FIRST_PORT + 100; port++) if (await portIsFree(port)) return port;
  throw new Error(`no free port from ${FIRST_PORT} to ${FIRST_PORT + 99}`);
}

/** The built server on its own data, as `npm start` runs it, with no mail server (accounts are verified at once). */
async function startServer(dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...serverEnv,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: base,
    LOG_LEVEL: 'warn',
    // The picture needs thumbnails, not the AI-search index.
    SEMANTIC_SEARCH: 'off',
    ...(process.env.WEB_ROOT ? { WEB_ROOT: process.env.WEB_ROOT } : {}),
  };
  const child = spawn(process.execPath, [...serverNodeArgs, serverMain], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('the server did not answer /health within a minute');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A landscape photo: sky, sun, hills and water in the given colours, as a 1600×1067 JPEG. */
function landscape({ sky, glow, sun, hills, water }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1067">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="${glow}"/></linearGradient>
      <linearGradient id="water" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${glow}"/><stop offset="1" stop-color="${water}"/></linearGradient>
    </defs>
    <rect width="1600" height="1067" fill="url(#sky)"/>
    <circle cx="1120" cy="430" r="90" fill="${sun}" opacity="0.9"/>
    <path d="M0 640 L220 420 L380 560 L600 330 L820 600 L1000 470 L1240 640 Z" fill="${hills[0]}"/>
    <path d="M600 660 L880 470 L1080 600 L1300 420 L1600 620 L1600 700 L600 700 Z" fill="${hills[1]}"/>
    <rect y="640" width="1600" height="427" fill="url(#water)"/>
    <rect x="1040" y="700" width="160" height="6" fill="${sun}" opacity="0.5"/>
    <rect x="1070" y="740" width="100" height="5" fill="${sun}" opacity="0.4"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A still life: a table, a cup and a plate on a coloured wall. */
function stillLife({ wall, table, cup, plate }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
    <rect width="1600" height="1200" fill="${wall}"/>
    <rect y="760" width="1600" height="440" fill="${table}"/>
    <ellipse cx="560" cy="860" rx="300" ry="70" fill="${plate}"/>
    <circle cx="520" cy="800" r="70" fill="#d9534f"/><circle cx="640" cy="815" r="60" fill="#f0ad4e"/>
    <rect x="980" y="560" width="230" height="280" rx="30" fill="${cup}"/>
    <path d="M1210 620 q110 0 110 90 q0 90 -110 90" stroke="${cup}" stroke-width="34" fill="none"/>
    <ellipse cx="1095" cy="840" rx="200" ry="30" fill="#00000022"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const PHOTOS = {
  'Lake at sunrise.jpg': () =>
    landscape({ sky: '#f6a96b', glow: '#fde3b5', sun: '#fff4d6', hills: ['#5b6c8f', '#3f4e6e'], water: '#4f6a8f' }),
  'Fjord in the evening.jpg': () =>
    landscape({ sky: '#2c3e7a', glow: '#e98b7a', sun: '#ffd7a0', hills: ['#1f2a4d', '#141c36'], water: '#24355f' }),
  'Summer meadow.jpg': () =>
    landscape({ sky: '#6fb7ea', glow: '#d8f0ff', sun: '#fffbe0', hills: ['#5c9e4a', '#3f7d35'], water: '#4d8fbf' }),
  'Breakfast.jpg': () => stillLife({ wall: '#e9dccb', table: '#8b5e3c', cup: '#2f6f8f', plate: '#fafafa' }),
};

const TEXTS = {
  'Meeting notes.md':
    '# Planning, 12 March\n\n- Move the photo archive to the new drive\n- Share the budget with Sam\n- Book the venue for the summer party\n',
  'Budget 2026.csv': 'month,rent,groceries,travel\nJanuary,1200,310,0\nFebruary,1200,295,150\nMarch,1200,320,480\n',
  'Reading list.txt': 'The Left Hand of Darkness\nPiranesi\nThe Overstory\nA Psalm for the Wild-Built\n',
  'Packing list.txt': 'passport\ncharger\nwalking boots\nrain jacket\ncamera\n',
};

const FOLDERS = {
  Photos: {
    'Harbour.jpg': () => landscape({ sky: '#8fb8de', glow: '#e6f1fb', sun: '#ffffff', hills: ['#6b7f99', '#51627a'], water: '#3d6a94' }),
  },
  Documents: { 'Lease agreement.txt': () => Buffer.from('Lease agreement between the tenant and the landlord.\n') },
  Projects: { 'Garden plan.md': () => Buffer.from('# Garden\n\nTomatoes by the south wall, herbs in pots.\n') },
  'Tax return 2025': { 'Receipts.csv': () => Buffer.from('date,amount,what\n2025-02-03,49.90,printer ink\n') },
  Recipes: { 'Pancakes.md': () => Buffer.from('# Pancakes\n\n2 eggs, 250 ml milk, 120 g flour, a pinch of salt.\n') },
};

/** The calls of a signed-in browser: its cookies live in the page's context, its id in `uuid`. */
function api(page, uuid) {
  return {
    async createFolder(name) {
      const r = await page.request.post('/folder-service/create', { headers: { uuid }, data: { name, parent: '/' } });
      if (r.status() !== 201) throw new Error(`creating folder ${name} answered ${r.status()}: ${await r.text()}`);
      return (await r.json())._id;
    },
    async upload(filename, bytes, parent = '/') {
      const r = await page.request.post('/file-service/upload', {
        headers: { uuid },
        multipart: {
          filename,
          parent,
          currentID: randomUUID(),
          size: String(bytes.length),
          file: { name: filename, mimeType: 'application/octet-stream', buffer: bytes },
        },
      });
      if (r.status() >= 300) throw new Error(`uploading ${filename} answered ${r.status()}: ${await r.text()}`);
    },
    async filesAtRoot() {
      const r = await page.request.get('/file-service/list?parent=/&limit=50', { headers: { uuid } });
      return r.json();
    },
  };
}

async function populate(page, uuid) {
  const drive = api(page, uuid);
  for (const [folder, files] of Object.entries(FOLDERS)) {
    const id = await drive.createFolder(folder);
    for (const [name, make] of Object.entries(files)) await drive.upload(name, await make(), id);
  }
  // Uploaded oldest first: the drive lists the newest first, so the photos lead.
  for (const [name, text] of Object.entries(TEXTS)) await drive.upload(name, Buffer.from(text));
  for (const [name, make] of Object.entries(PHOTOS)) await drive.upload(name, await make());
  // Thumbnails are made by a background job: wait until every photo has one.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const files = await drive.filesAtRoot();
    const photos = files.filter((f) => f.filename.endsWith('.jpg'));
    if (photos.length === Object.keys(PHOTOS).length && photos.every((f) => f.metadata.hasThumbnail)) return;
    if (Date.now() > deadline) throw new Error('thumbnails were not made within a minute');
    await new Promise((r) => setTimeout(r, 300));
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-screenshot-'));
let server;
let browser;
try {
  server = await startServer(dataDir);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: server.base, viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);

  const uuid = randomUUID();
  const created = await page.request.post('/user-service/create', {
    headers: { uuid },
    data: { email: 'alex@example.com', password: 'demo-password' },
  });
  if (created.status() !== 201) throw new Error(`sign-up answered ${created.status()}: ${await created.text()}`);
  const userId = (await created.json()).user._id;
  await populate(page, uuid);

  // The web app finds the same browser id and a previous login, so it restores the session on load.
  await context.addInitScript(
    ([id, user]) => {
      localStorage.setItem('browser-id', id);
      localStorage.setItem('hasPreviouslyLoggedIn', 'true');
      localStorage.setItem('userId', user);
    },
    [uuid, userId],
  );
  await page.goto('/home');
  await page.getByRole('heading', { name: 'Home Files' }).waitFor();
  await page.locator('[aria-label="Files"] img').first().waitFor();
  // Every thumbnail on screen drawn (those further down or right load lazily) and the fonts loaded.
  await page.waitForFunction(() => {
    const { document: doc, innerWidth, innerHeight } = globalThis;
    const onScreen = (img) => img.getBoundingClientRect().top < innerHeight && img.getBoundingClientRect().left < innerWidth;
    return doc.fonts.status === 'loaded' && [...doc.images].filter(onScreen).every((img) => img.complete && img.naturalWidth > 0);
  });
  // One click selects a photo, so the detail panel shows what it knows of it.
  await page.locator('[aria-label="Files"] [role="option"]', { hasText: 'Summer meadow.jpg' }).click();
  await page.getByText('Select a file or folder').waitFor({ state: 'detached' });
  // The pointer away from anything it would highlight.
  await page.mouse.move(0, VIEWPORT.height - 1);
  await page.waitForTimeout(500);
  mkdirSync(path.dirname(OUTPUT), { recursive: true });
  await page.screenshot({ path: OUTPUT });
  console.log(`saved ${path.relative(root, OUTPUT)}`);
} finally {
  await browser?.close();
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
