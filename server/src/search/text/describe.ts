import type { SearchKind } from '../../db/schema.js';
import type { FolderChild } from '../db/index-source.repository.js';
import { firstWords, nameWords } from './words.js';

export interface Description {
  /** Full-text indexed. */
  body: string;
  /** What the embedding is made from: short, the most telling parts first. */
  summary: string;
}

const KIND_PHRASE: Record<SearchKind, string> = {
  photo: 'a photo',
  video: 'a video',
  document: 'a document',
  scan: 'a scanned document',
  audio: 'an audio recording',
  other: 'a file',
};
/** The model's cost grows with length; the first words of a document say the most about it. */
const SUMMARY_WORDS = 50;

/** Camera and phone defaults (IMG_2041, DSC01234, PXL_2024…, VID-…) say nothing about the content. */
export function isGenericName(name: string): boolean {
  return /^(img|dsc|dscn|dcim|pxl|vid|mov|mvi|gopr|photo|video|image|scan|screenshot|whatsapp image)?[\s_-]*[\d_\-\s]*(\.\w+)?$/i.test(
    name,
  );
}

function stem(filename: string): string {
  return filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

export function describeFile(input: {
  filename: string;
  folderName: string | null;
  kind: SearchKind;
  place: string | null;
  content: string;
}): Description {
  const name = nameWords(stem(input.filename)).join(' ');
  const folder = input.folderName ? nameWords(input.folderName).join(' ') : '';
  const extension = input.filename.match(/\.([A-Za-z0-9]{1,5})$/)?.[1]?.toLowerCase() ?? '';
  // The name counts twice: it is the best single summary of a file.
  const body = [name, name, extension, folder, input.place ?? '', input.content].filter(Boolean).join(' ');
  const summary = [
    isGenericName(input.filename) ? KIND_PHRASE[input.kind] : `${name}, ${KIND_PHRASE[input.kind]}`,
    folder && `in the folder ${folder}`,
    input.place && `taken in ${input.place}`,
    firstWords(input.content, SUMMARY_WORDS),
  ]
    .filter(Boolean)
    .join('. ');
  return { body, summary };
}

export function describeFolder(input: { name: string; parentName: string | null; children: FolderChild[] }): Description {
  const name = nameWords(input.name).join(' ');
  const childNames = input.children.filter((c) => !isGenericName(c.name)).map((c) => nameWords(stem(c.name)).join(' '));
  const places = [...new Set(input.children.map((c) => c.place).filter((p): p is string => !!p))];
  const kinds = [...new Set(input.children.map((c) => c.kind).filter((k): k is SearchKind => !!k && k in KIND_PHRASE))];
  const excerpts = input.children.map((c) => firstWords(c.content ?? '', 15)).filter(Boolean);
  const body = [name, name, input.parentName ?? '', ...childNames, ...places, ...excerpts].filter(Boolean).join(' ');
  const summary = [
    `folder ${name}`,
    kinds.length > 0 && `with ${kinds.map((k) => KIND_PHRASE[k].replace(/^an? /, '') + 's').join(', ')}`,
    childNames.length > 0 && `containing ${firstWords(childNames.join(', '), 40)}`,
    places.length > 0 && `from ${places.slice(0, 3).join('; ')}`,
  ]
    .filter(Boolean)
    .join('. ');
  return { body, summary };
}
