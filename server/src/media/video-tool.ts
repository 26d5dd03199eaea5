import { spawn } from 'node:child_process';
import os from 'node:os';
import { MediaToolMissingError } from './errors.js';

export interface ToolRun {
  /** Null when the process was killed (time limit, output limit). */
  code: number | null;
  stdout: string;
  /** The last lines of stderr, where ffmpeg and ffprobe say what went wrong. */
  stderr: string;
  timedOut: boolean;
}

export interface ToolOptions {
  timeoutMs: number;
  /** stdout beyond this kills the process (a hostile file cannot fill memory). */
  maxStdoutBytes?: number;
  /** Lowered CPU priority (nice 19): the drive's requests come first. */
  background?: boolean;
}

/** Runs ffmpeg or ffprobe as a child process with a time limit; never through a shell. */
export function runTool(command: string, args: string[], options: ToolOptions): Promise<ToolRun> {
  const name = command.split('/').pop() ?? command;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (options.background && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, 19);
      } catch {
        // Exited already, or a platform without priorities: it runs at normal priority.
      }
    }
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > (options.maxStdoutBytes ?? 1024 * 1024)) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err.code === 'ENOENT' ? new MediaToolMissingError(name) : err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: stderr.trim(), timedOut });
    });
  });
}

/** The last line ffmpeg or ffprobe wrote to stderr: the reason of a failure. */
export function lastLine(text: string): string {
  return text.split('\n').pop()?.trim() ?? '';
}
