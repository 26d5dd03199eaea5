import type { Analyzed, ComputeTask } from '../compute/tasks.js';
import type { Analysis } from './analysis.js';
import { embedPictures } from './picture-embedding.js';
import { readDocx } from './docx.js';
import { readPdfApart } from './pdf-process.js';
import { analyzeImage } from './photo.js';
import { isTextLike, readPlain } from './plain.js';
import { analyzeVideo, videoFrames } from './video.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Reads what a file contains and, given the image–text model's folder, embeds the picture of a
 * photo (or `pictureBytes`, the preview of one whose own pixels are not decoded here) or of a video's
 * sampled frames. Runs in a compute thread.
 */
export async function analyze(task: Extract<ComputeTask, { type: 'analyze' }>): Promise<Analyzed> {
  const { clipDir, contentType, path } = task;
  if (!clipDir) return analyzeContent(task);
  if ((contentType.startsWith('video/') || contentType.startsWith('audio/')) && path) {
    const { frames, ...analysis } = await analyzeVideo(path, true).catch(() => ({ ...none('video'), frames: [] }));
    return analysis.kind === 'video' ? { ...analysis, picture: await embedPictures(clipDir, frames ?? []) } : analysis;
  }
  const picture = task.pictureBytes ?? (contentType.startsWith('image/') ? task.bytes : undefined);
  const analysis = await analyzeContent(task);
  return analysis.kind === 'photo' && picture ? { ...analysis, picture: await embedPictures(clipDir, [picture]) } : analysis;
}

/** The embedding of a file already analysed: for a change of image–text model only. */
export async function embedPicture(task: Extract<ComputeTask, { type: 'clip-image' }>) {
  const pictures = task.path ? await videoFrames(task.path).catch(() => []) : task.bytes ? [task.bytes] : [];
  return embedPictures(task.dir, pictures);
}

const none = (kind: Analysis['kind']): Analysis => ({ kind, text: '', contentDate: null, place: null });

/**
 * Reads what a file contains. Throws only on unexpected failures; unreadable content yields an
 * empty analysis so a corrupt upload is indexed by name alone.
 */
async function analyzeContent(task: Extract<ComputeTask, { type: 'analyze' }>): Promise<Analysis> {
  const { contentType, filename, bytes, path } = task;
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
