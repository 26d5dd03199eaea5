// `npm run nimbus -- <command>`: the operator's commands (check, backup, restore…), on the built server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
ensureBuilt();

const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'cli', 'run.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: process.cwd(),
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
