import { spawn } from 'node:child_process';
import { BackupError } from './manifest.js';
import type { ToolCommand } from './pg-command.js';

/** Runs a PostgreSQL client tool (pg_dump, pg_restore); its error output becomes the error. */
export function runTool({ tool, args, env }: ToolCommand): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupError(`${tool} was not found on the PATH: install the PostgreSQL client tools (Debian: postgresql-client)`)
          : err,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim() || 'no message'}`)),
    );
  });
}
