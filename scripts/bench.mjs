// `npm run bench`: builds, then runs every benchmark script and prints its figures. Not part of `npm test`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureDebianPackage, ensureDependencies, root, run } from './lib.mjs';

ensureDependencies();
ensureBuilt();
// The clients the benchmarks drive, each in a process of its own.
ensureDebianPackage('/usr/bin/curl', 'curl');
ensureDebianPackage('/usr/bin/wrk', 'wrk');
const only = process.argv[2];
let failed = 0;
for (const dir of ['server/bench', 'web/bench']) {
  let entries = [];
  try {
    entries = readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.bench.mjs'));
  } catch {
    continue;
  }
  for (const file of entries) {
    if (only && !file.includes(only)) continue;
    if (run(process.execPath, [path.join(root, dir, file)]) !== 0) failed++;
  }
}
process.exit(failed ? 1 : 0);
