// `npm start`: install what is missing, build what is stale, then run the server (it migrates on start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ensureDependencies, root } from './lib.mjs';
import { serverEnv, serverNodeArgs } from './server-runtime.mjs';

ensureDependencies();
ensureBuilt();

const server = spawn(process.execPath, [...serverNodeArgs, path.join(root, 'server', 'dist', 'main.js')], {
  stdio: 'inherit',
  cwd: process.cwd(),
  env: { ...serverEnv, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
