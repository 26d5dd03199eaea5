// `npm run eval:search`: the AI search evaluations against the built server, each on a fresh drive.
//   --set legacy   the first evaluation (written with the search and tuned on; `--subset` for the test's share)
//   --set real     real photos and videos, with a held-out part (fetches the media first)
// Without --set, both run.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { fetchRealMedia } from './fetch-real-media.mjs';
import { evaluationClock, report, runEvaluation } from './harness.mjs';

const at = process.argv.indexOf('--set');
const sets = at > 0 ? [process.argv[at + 1]] : ['legacy', 'real'];

for (const set of sets) {
  if (set === 'real') await fetchRealMedia();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-eval-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEMANTIC_SEARCH: 'on' });
  const clock = evaluationClock();
  const app = await buildApp(config, { clock });
  try {
    console.log(`\n=== ${set === 'real' ? 'real photos and videos' : 'first evaluation (tuned on)'} ===`);
    const run = await runEvaluation(app, clock, {
      set,
      subset: process.argv.includes('--subset'),
      onProgress: (m) => console.log(`> ${m}`),
    });
    console.log(report(run));
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
