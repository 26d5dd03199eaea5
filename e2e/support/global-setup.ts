import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumPath, repoRoot, serverMain, webRoot } from './paths';

declare module 'vitest' {
  export interface ProvidedContext {
    browserWsEndpoint: string;
  }
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function build(command: string, args: string[]): void {
  // The test runner sets NODE_ENV=test, which would make Vite bundle React's development build.
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

function newestChange(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), stat.mtimeMs);
}

function isWebBuildStale(): boolean {
  const built = path.join(webRoot, 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'common/src'].map((p) => newestChange(path.join(repoRoot, p)));
  return statSync(built).mtimeMs < Math.max(...sources);
}

/** Builds what is missing or stale, then starts one Chromium that every test file connects to. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(serverMain)) build('npx', ['tsc', '-b', 'common', 'server']);
  if (isWebBuildStale()) build('npm', ['run', 'build', '-w', 'web']);
  if (!existsSync(chromiumPath)) throw new Error(`Chromium is missing at ${chromiumPath} (apt-get install chromium)`);

  const browser: BrowserServer = await chromium.launchServer({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
  };
}
