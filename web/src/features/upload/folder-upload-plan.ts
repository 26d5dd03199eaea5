import type { FolderDto } from '@nimbus/common';
import type { FolderUploadFile } from '../../api/uploads.api';
import { RESUMABLE_MIN_BYTES } from '../../api/resumable-uploads.api';

/** A picked folder split by how its files travel: small ones in one `POST /folder-service/upload`, big ones resumably. */
export interface FolderUploadPlan {
  small: FolderUploadFile[];
  large: FolderUploadFile[];
}

export function planFolderUpload(files: FolderUploadFile[]): FolderUploadPlan {
  const plan: FolderUploadPlan = { small: [], large: [] };
  for (const entry of files) (entry.file.size >= RESUMABLE_MIN_BYTES ? plan.large : plan.small).push(entry);
  return plan;
}

/** The folder part of a relative path: "Trip/day 1/a.jpg" → ["Trip", "day 1"]. */
export function directorySegments(path: string): string[] {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  segments.pop();
  return segments;
}

/**
 * Relative path → id of the folders a folder upload created below `root`, rebuilt from their
 * names and parents (one upload never makes two siblings of the same name).
 */
export function folderIdsByPath(folders: readonly FolderDto[], root: string): Map<string, string> {
  const byId = new Map(folders.map((f) => [f._id, f]));
  const pathOf = (folder: FolderDto, depth = 0): string | null => {
    if (folder.parent === root) return folder.name;
    const parent = byId.get(folder.parent);
    if (!parent || depth > folders.length) return null;
    const above = pathOf(parent, depth + 1);
    return above === null ? null : `${above}/${folder.name}`;
  };
  const ids = new Map<string, string>();
  for (const folder of folders) {
    const path = pathOf(folder);
    if (path !== null) ids.set(path, folder._id);
  }
  return ids;
}

/**
 * The id of the folder at `segments` below `root`, making the ones the folder upload did not
 * (a folder that holds only big files); `known` learns each new one, so siblings share it.
 */
export async function ensureFolderPath(
  segments: string[],
  root: string,
  known: Map<string, string>,
  create: (name: string, parent: string) => Promise<FolderDto>,
): Promise<string> {
  let parent = root;
  for (let i = 0; i < segments.length; i++) {
    const key = segments.slice(0, i + 1).join('/');
    let id = known.get(key);
    if (!id) {
      id = (await create(segments[i]!, parent))._id;
      known.set(key, id);
    }
    parent = id;
  }
  return parent;
}
