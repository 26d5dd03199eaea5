// `npm run eval:faces`: the people evaluation against the built server, on a fresh data folder.
//   --part tuning|heldOut   one part only (both by default)
//   --models <folder>       search with the image–text model kept in this folder (else the bundled pipeline)
//   --json <file>           also write every figure, identity and query as JSON
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../dist/app.js';
import { loadConfig } from '../../dist/config.js';
import { evaluationClock } from '../harness.mjs';
import { PARTS } from './corpus.mjs';
import { reportFaces, runFaceEvaluation } from './harness.mjs';
import { renderFaces } from './render.mjs';

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const part = option('--part');
if (part && !PARTS.includes(part)) throw new Error(`--part is one of ${PARTS.join(', ')}`);
const models = option('--models');
const json = option('--json');

const manifest = await renderFaces();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-faces-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEMANTIC_SEARCH: 'on',
  // Never a download: a folder given is used as it is, and without one search runs on the bundled pipeline.
  ...(models ? { MODELS_DIR: path.resolve(models), MODELS_URL: 'http://127.0.0.1:9' } : { SMART_SEARCH_MODEL: 'off' }),
});
const clock = evaluationClock();
const app = await buildApp(config, { clock });
try {
  const results = await runFaceEvaluation(app, clock, manifest, {
    parts: part ? [part] : PARTS,
    onProgress: (m) => console.log(`> ${m}`),
  });
  console.log(reportFaces(results));
  if (json) writeFileSync(json, `${JSON.stringify(results, null, 1)}\n`);
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
