import { fork, type ChildProcess } from 'node:child_process';
import { compiledWorker } from '../../workers/pool.js';

/** Twice what a 600-page PDF or the largest of the evaluation set needs to be read. */
const PDF_HEAP_MB = 256;
/** Below the compute task's deadline, so the thread that waits ends the reader itself. */
const PDF_TIMEOUT_MS = 90_000;
/** An idle reader keeps pdf.js loaded this long (starting one costs about a second). */
const IDLE_MS = 60_000;

export interface PdfText {
  text: string;
  date: number | null;
}

function isPdfText(value: unknown): value is PdfText {
  const v = value as Partial<PdfText> | null;
  return typeof v?.text === 'string' && (v.date === null || typeof v.date === 'number');
}

let reader: { child: ChildProcess; idle?: NodeJS.Timeout } | null = null;
let queue: Promise<unknown> = Promise.resolve();

function startedReader(): ChildProcess {
  if (reader?.child.connected) {
    clearTimeout(reader.idle);
    return reader.child;
  }
  const child = fork(compiledWorker('search/extract/pdf-child.js'), [], {
    execArgv: [`--max-old-space-size=${PDF_HEAP_MB}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: {},
  });
  // A failed start or send: the exit that follows fails the PDF being read.
  child.on('error', () => child.kill('SIGKILL'));
  child.once('exit', () => {
    if (reader?.child === child) reader = null;
  });
  reader = { child };
  return child;
}

function readOne(bytes: Uint8Array): Promise<PdfText> {
  const child = startedReader();
  child.ref();
  child.channel?.ref();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), PDF_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (reader?.child !== child) return;
      // Idle, the reader neither keeps this thread alive nor outlives its use for long.
      child.unref();
      child.channel?.unref();
      reader.idle = setTimeout(() => child.kill(), IDLE_MS).unref();
    };
    const onMessage = (message: unknown) => {
      done();
      if (isPdfText(message)) resolve(message);
      else reject(new Error('the PDF could not be read'));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      done();
      reject(new Error(`the PDF reader ended while reading (${signal ?? `exit code ${code}`})`));
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(bytes);
  });
}

/**
 * Reads a PDF in a process of its own with a bounded heap. A few KB of PDF can make pdf.js build
 * gigabytes of objects for one string, and a thread that reaches its heap limit in one large
 * allocation can take the whole server down with it; a process that does ends only itself, and
 * the next PDF starts a new one. PDFs are read one after another.
 */
export function readPdfApart(bytes: Uint8Array): Promise<PdfText> {
  const result = queue.then(() => readOne(bytes));
  queue = result.catch(() => undefined);
  return result;
}
