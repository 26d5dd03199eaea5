import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { SmartModelConfig } from '../config.js';
import { digestFile } from './file-digest.js';
import { HubClient, mismatch } from './hub-client.js';
import { MANIFEST_FILE, type ModelFileNeed, type ModelManifest } from './model-files.js';

/** `<MODELS_DIR>/<owner>/<name>`: the hub's layout, which the model loaders read as it is. */
export function modelFolder(config: SmartModelConfig): string {
  return path.join(config.dir, ...config.id.split('/'));
}

/** A repository id names one folder below MODELS_DIR, never a way out of it. */
export function isSafeModelId(id: string): boolean {
  const parts = id.split('/');
  return parts.length === 2 && parts.every((p) => /^[\w.-]+$/.test(p) && p !== '.' && p !== '..');
}

const manifestSchema = z.object({
  repo: z.string(),
  revision: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  fetchedAt: z.string(),
}) satisfies z.ZodType<ModelManifest>;

export async function readManifest(folder: string): Promise<ModelManifest | null> {
  try {
    return manifestSchema.parse(JSON.parse(await readFile(path.join(folder, MANIFEST_FILE), 'utf8')));
  } catch {
    return null;
  }
}

export interface FolderState {
  complete: boolean;
  /** Why not, for the log. */
  reason: string | null;
  bytes: number;
  /** False for a folder copied by hand, which has no manifest. */
  hasManifest: boolean;
}

/**
 * Whether the folder holds the model, cheaply: with a manifest, each file it lists has its size; without
 * one (copied by hand to a server without internet), each required file is there and not empty.
 */
export async function inspectFolder(config: SmartModelConfig, files: readonly ModelFileNeed[]): Promise<FolderState> {
  const folder = modelFolder(config);
  const manifest = await readManifest(folder);
  if (manifest) {
    if (manifest.repo !== config.id || manifest.revision !== config.revision)
      return { complete: false, reason: `the folder holds ${manifest.repo}@${manifest.revision}`, bytes: 0, hasManifest: true };
    const listed = new Set(manifest.files.map((f) => f.path));
    const absent = files.find((f) => !f.optional && !listed.has(f.path));
    if (absent) return { complete: false, reason: `its manifest lacks ${absent.path}`, bytes: 0, hasManifest: true };
    let bytes = 0;
    for (const file of manifest.files) {
      const size = await sizeOf(path.join(folder, file.path));
      if (size !== file.size) return { complete: false, reason: `${file.path} is missing or changed size`, bytes: 0, hasManifest: true };
      bytes += size;
    }
    return { complete: true, reason: null, bytes, hasManifest: true };
  }
  let bytes = 0;
  for (const file of files) {
    const size = await sizeOf(path.join(folder, file.path));
    if (!size && !file.optional) return { complete: false, reason: `${file.path} is missing`, bytes: 0, hasManifest: false };
    bytes += size ?? 0;
  }
  return { complete: true, reason: null, bytes, hasManifest: false };
}

export interface VerifyReport {
  /** manifest: hashes from the manifest written at download; hub: a folder copied by hand, checked against the hub's list. */
  against: 'manifest' | 'hub';
  files: number;
  bytes: number;
  problems: string[];
}

/** Every byte of every file against its hash. Throws when neither a manifest nor the hub can say what the hashes should be. */
export async function verifyFolder(config: SmartModelConfig, files: readonly ModelFileNeed[], hub: HubClient): Promise<VerifyReport> {
  const folder = modelFolder(config);
  const manifest = await readManifest(folder);
  const report: VerifyReport = { against: manifest ? 'manifest' : 'hub', files: 0, bytes: 0, problems: [] };
  const expected = manifest ? manifest.files : null;
  const hubFiles = expected ? null : new Map((await hub.listFiles(config.id, config.revision)).map((f) => [f.path, f]));
  for (const need of files) {
    const file = path.join(folder, need.path);
    if ((await sizeOf(file)) === null) {
      const listed = expected ? expected.some((f) => f.path === need.path) : hubFiles!.has(need.path);
      if (!need.optional || listed) report.problems.push(`${need.path} is missing`);
      continue;
    }
    const digests = await digestFile(file);
    report.files += 1;
    report.bytes += digests.size;
    if (expected) {
      const want = expected.find((f) => f.path === need.path);
      if (!want) report.problems.push(`${need.path} is not in the manifest`);
      else if (want.size !== digests.size) report.problems.push(`${need.path} has ${digests.size} bytes, the manifest says ${want.size}`);
      else if (want.sha256 !== digests.sha256) report.problems.push(`${need.path} does not match its sha256 in the manifest`);
    } else {
      const want = hubFiles!.get(need.path);
      const problem = want ? mismatch(want, digests) : `${need.path} is not in ${config.id}@${config.revision} on the hub`;
      if (problem) report.problems.push(problem);
    }
  }
  return report;
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}
