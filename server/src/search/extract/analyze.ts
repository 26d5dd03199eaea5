import type { ComputeTask } from '../compute/tasks.js';
import type { Analysis } from './analysis.js';
import { readDocx } from './docx.js';
import { readPdfApart } from './pdf-process.js';
import { analyzeImage } from './photo.js';
import { isTextLike, readPlain } from './plain.js';
import { analyzeVideo } from './video.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Reads what a file contains. Runs in a compute thread. Throws only on unexpected failures;
 * unreadable content yields an empty analysis so a corrupt upload is indexed by name alone.
 */
export async function analyze(task: Extract<ComputeTask, { type: 'analyze' }>): Promise<Analysis> {
  const { contentType, filename, bytes, path } = task;
  const none = (kind: Analysis['kind']): Analysis => ({ kind, text: '', contentDate: null, place: null });
  try {
    if ((contentType.startsWith('video/') || contentType.startsWith('audio/')) && path) return await analyzeVideo(path);
    if (!bytes) return none(contentType.startsWith('image/') ? 'photo' : 'other');
    if (contentType.startsWith('image/')) return await analyzeImage(bytes);
    if (contentType === 'application/pdf') return fromDocument(await readPdfApart(bytes));
    if (contentType === DOCX || filename.toLowerCase().endsWith('.docx')) return fromDocument(await readDocx(bytes));
    if (isTextLike(contentType, filename)) return { kind: 'document', text: readPlain(bytes), contentDate: null, place: null };
  } catch {
    return none(contentType.startsWith('image/') ? 'photo' : isDocumentType(contentType) ? 'document' : 'other');
  }
  return none(isDocumentType(contentType) ? 'document' : 'other');
}

function fromDocument(doc: { text: string; date: number | null }): Analysis {
  return { kind: 'document', text: doc.text, contentDate: doc.date, place: null };
}

function isDocumentType(contentType: string): boolean {
  return /pdf|word|document|spreadsheet|presentation|opendocument|rtf|text/.test(contentType);
}
