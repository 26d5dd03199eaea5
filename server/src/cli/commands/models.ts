import type { Logger } from '../../logger.js';
import { readManifest } from '../../model-store/model-on-disk.js';
import { ModelStore } from '../../model-store/model-store.js';
import type { Command } from '../nimbus.js';
import { parseArgs, UsageError } from './args.js';

const USAGE = 'models pull | models status [--json] | models verify';
/** Exit codes: 0 the model is there and verified, 1 it is not (or is off), 2 bad arguments. */
const EXIT = { ok: 0, notReady: 1, usage: 2 } as const;
const MB = 1_000_000;

/**
 * AI search's image–text model from the server's shell: fetched ahead of time on a connected machine
 * (then its folder can be copied to a server without internet), its state, and a check of every hash.
 */
export const modelsCommand: Command = {
  summary:
    "Fetch, show or verify AI search's image–text model (SMART_SEARCH_MODEL, in MODELS_DIR).\n" +
    '  pull    download it now from MODELS_URL, verify every file; exit 0 when verified\n' +
    '  status  where it is and whether it is complete (--json for the details); exit 0 when ready\n' +
    '  verify  hash every file against the manifest written at download (or against the hub for a\n' +
    '          folder copied by hand); exit 0 when every file matches',
  usage: USAGE,
  async run(config, args) {
    let action: 'pull' | 'status' | 'verify';
    let json: boolean;
    try {
      const parsed = parseArgs(args, { flags: ['--json'], values: [] });
      const [verb, ...rest] = parsed.positional;
      if ((verb !== 'pull' && verb !== 'status' && verb !== 'verify') || rest.length > 0)
        throw new UsageError('Give pull, status or verify');
      action = verb;
      json = parsed.flags.has('--json');
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      console.error(`${err.message}\nUsage: npm run nimbus -- ${USAGE}`);
      return EXIT.usage;
    }
    const model = config.search.smartModel;
    if (!model) {
      if (json) console.log(JSON.stringify({ model: null, state: 'off' }));
      else console.error('The AI model is off (SMART_SEARCH_MODEL=off): search uses the bundled pipeline.');
      return EXIT.notReady;
    }
    // One try: the operator is watching and runs the command again.
    const store = new ModelStore(model, printer(), { retryDelaysMs: [24 * 3_600_000] });
    try {
      if (action === 'pull') return await pull(store);
      if (action === 'status') return await status(store, json);
      return await verify(store);
    } finally {
      await store.close();
    }
  },
};

async function pull(store: ModelStore): Promise<number> {
  const { id, revision, hubUrl } = store.config;
  if ((await store.inspect()).state === 'ready') {
    console.log(`${id} is already in ${store.status().dir}; checking every file…`);
    return verify(store);
  }
  console.log(`Fetching ${id}@${revision} from ${hubUrl} into ${store.status().dir}`);
  await store.ensure();
  const result = store.status();
  if (result.state !== 'ready') {
    console.error(`Could not fetch ${id}: ${result.error ?? 'unknown error'}`);
    return EXIT.notReady;
  }
  console.log(`${id} is ready: ${(result.bytesTotal / MB).toFixed(1)} MB, every file verified.`);
  return EXIT.ok;
}

async function status(store: ModelStore, json: boolean): Promise<number> {
  const result = await store.inspect();
  const manifest = result.dir ? await readManifest(result.dir) : null;
  if (json) console.log(JSON.stringify({ ...result, revision: store.config.revision, fetchedAt: manifest?.fetchedAt ?? null }, null, 2));
  else {
    const state =
      result.state === 'ready'
        ? `ready, ${(result.bytesTotal / MB).toFixed(1)} MB, ${manifest ? `downloaded and verified ${manifest.fetchedAt}` : 'copied by hand (no manifest: run models verify)'}`
        : `not there yet: run npm run nimbus -- models pull (or copy the folder from a server that has it)`;
    console.log(`Model:  ${store.config.id}@${store.config.revision}\nFolder: ${result.dir}\nState:  ${state}`);
  }
  return result.state === 'ready' ? EXIT.ok : EXIT.notReady;
}

async function verify(store: ModelStore): Promise<number> {
  if ((await store.inspect()).state !== 'ready') {
    console.error(`${store.config.id} is not complete in ${store.status().dir}: run npm run nimbus -- models pull`);
    return EXIT.notReady;
  }
  let report;
  try {
    report = await store.verify();
  } catch (err) {
    console.error(`Cannot verify the copied folder without its manifest: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT.notReady;
  }
  const against = report.against === 'manifest' ? 'the manifest' : `the hub's list at ${store.config.hubUrl}`;
  if (report.problems.length === 0) {
    console.log(`${store.config.id}: ${report.files} files, ${(report.bytes / MB).toFixed(1)} MB, all match ${against}.`);
    return EXIT.ok;
  }
  console.error(
    [`${store.config.id}: ${report.problems.length} file(s) do not match ${against}:`, ...report.problems.map((p) => `  ${p}`)].join('\n'),
  );
  console.error('Run npm run nimbus -- models pull after removing the folder to fetch it again.');
  return EXIT.notReady;
}

/** The store's progress lines on stdout; its failure line is replaced by the command's own message. */
function printer(): Logger {
  return { info: (_obj, msg) => console.log(msg), warn: () => undefined, error: (_obj, msg) => console.error(msg) };
}
