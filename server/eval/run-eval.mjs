// `npm run eval:search`: the AI search evaluation against the built server (`--subset` for the test's share).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { evaluationClock, report, runEvaluation } from './harness.mjs';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-eval-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEMANTIC_SEARCH: 'on' });
const clock = evaluationClock();
const app = await buildApp(config, { clock });
try {
  const run = await runEvaluation(app, clock, { subset: process.argv.includes('--subset'), onProgress: (m) => console.log(`> ${m}`) });
  console.log(report(run));
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
