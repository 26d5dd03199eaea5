import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/** Builds what is missing, then starts one Chromium that every test file connects to. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(serverMain)) build('npx', ['tsc', '-b', 'common', 'server']);
  if (!existsSync(path.join(webRoot, 'index.html'))) build('npm', ['run', 'build', '-w', 'web']);
  if (!existsSync(chromiumPath)) throw new Error(`Chromium is missing at ${chromiumPath} (apt-get install chromium)`);

  const browser: BrowserServer = await chromium.launchServer({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
  };
}
