// `npm run eval:search`: the AI search evaluations against the built server, each on a fresh drive.
//   --set legacy   the first evaluation (written with the search and tuned on; `--subset` for the test's share)
//   --set real     real photos and videos, with a held-out part (fetches the media first)
// Without --set, both run.
//   --model-dir <folder>   with the image–text model in that folder (as `<MODELS_DIR>/<repo>` holds it,
//                          e.g. after `npm run nimbus -- models pull`); without it, the bundled pipeline alone
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { fetchRealMedia } from './fetch-real-media.mjs';
import { evaluationClock, report, runEvaluation } from './harness.mjs';

const at = process.argv.indexOf('--set');
const sets = at > 0 ? [process.argv[at + 1]] : ['legacy', 'real'];
const modelAt = process.argv.indexOf('--model-dir');
const modelDir = modelAt > 0 ? path.resolve(process.argv[modelAt + 1] ?? '') : null;
const HEALTH_TOKEN = 'eval-health-token-0123456789abcdef';

/**
 * The model folder served to the eval server as its MODELS_DIR would hold it: `<dir>/<repo>`, the
 * repository named by the folder's manifest when it was pulled by Nimbus. Nothing is downloaded.
 */
async function modelSettings(dataDir) {
  if (!modelDir) return { SMART_SEARCH_MODEL: 'off' };
  const manifest = await readFile(path.join(modelDir, 'nimbus-model.json'), 'utf8').then(JSON.parse, () => null);
  const repo = manifest?.repo ?? 'local/clip';
  const revision = manifest?.revision ?? 'main';
  const modelsDir = path.join(dataDir, 'models');
  await mkdir(path.join(modelsDir, path.dirname(repo)), { recursive: true });
  await symlink(modelDir, path.join(modelsDir, repo), 'dir');
  // An address nothing answers at: a folder that is not complete fails at once instead of downloading.
  return { SMART_SEARCH_MODEL: `${repo}@${revision}`, MODELS_DIR: modelsDir, MODELS_URL: 'http://127.0.0.1:9' };
}

/** Indexing only uses the model once it is found on disk and checked. */
async function waitForModel(app) {
  for (let tries = 0; tries < 600; tries++) {
    const response = await app.inject({ method: 'GET', url: '/health/details', headers: { authorization: `Bearer ${HEALTH_TOKEN}` } });
    const { state, error } = response.json().model ?? {};
    if (state === 'ready') return;
    if (state === 'failed') throw new Error(`the model in ${modelDir} cannot be used: ${error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the model in ${modelDir} was not ready after a minute`);
}

for (const set of sets) {
  if (set === 'real') await fetchRealMedia();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-eval-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEMANTIC_SEARCH: 'on', HEALTH_TOKEN, ...(await modelSettings(dataDir)) };
  const config = loadConfig(env);
  const clock = evaluationClock();
  const app = await buildApp(config, { clock });
  try {
    if (modelDir) await waitForModel(app);
    const model = modelDir ? `, with the image–text model ${env.SMART_SEARCH_MODEL}` : '';
    console.log(`\n=== ${set === 'real' ? 'real photos and videos' : 'first evaluation (tuned on)'}${model} ===`);
    const run = await runEvaluation(app, clock, {
      set,
      subset: process.argv.includes('--subset'),
      onProgress: (m) => console.log(`> ${m}`),
    });
    console.log(report(run));
    if (modelDir) {
      const rows = await app.database.db.selectFrom('searchEntry').select('imageEmbedding').where('imageModelId', 'is not', null).execute();
      console.log(
        `pictures embedded by the image–text model: ${rows.filter((r) => r.imageEmbedding !== null).length} (${rows.length} looked at)`,
      );
    }
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
