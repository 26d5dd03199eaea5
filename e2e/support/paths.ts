import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const serverMain = path.join(repoRoot, 'server', 'dist', 'main.js');
export const webRoot = path.join(repoRoot, 'web', 'dist');
export const screenshotDir = path.join(repoRoot, 'artifacts', 'screenshots');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
