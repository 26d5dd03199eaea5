import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

/** The import-boundary messages ESLint gives `code` as if it were the file at `filePath`. */
async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('server layers', () => {
  it('refuses the database from an HTTP module', async () => {
    const errors = await restrictedImports(
      'server/src/http/probe.ts',
      "import { openDatabase } from '../db/database.js';\nvoid openDatabase;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('../db/database.js');
  });

  it('refuses repositories and blob stores from a route, type imports included', async () => {
    const errors = await restrictedImports(
      'server/src/http/routes/files/probe.ts',
      [
        "import type { FileRow } from '../../../db/repositories/file.repository.js';",
        "import type { ByteRange } from '../../../storage/blob-store.js';",
        'export type Probe = [FileRow, ByteRange];',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
  });

  it('refuses the database and storage from WebDAV', async () => {
    const errors = await restrictedImports(
      'server/src/dav/probe.ts',
      [
        "import { DavRepository } from '../db/repositories/dav.repository.js';",
        "import type { UnitOfWork } from '../db/unit-of-work.js';",
        "import type { EncryptedStore } from '../storage/blob-store.js';",
        'export type Probe = [DavRepository, UnitOfWork, EncryptedStore];',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(3);
  });

  it('lets HTTP and WebDAV use services', async () => {
    const code = "import type { FileRow } from '../services/drive/file.service.js';\nexport type Probe = FileRow;\n";
    expect(await restrictedImports('server/src/dav/probe.ts', code)).toEqual([]);
    expect(await restrictedImports('server/src/http/probe.ts', code)).toEqual([]);
  });
});

describe('web features', () => {
  it("refuses another feature's internals", async () => {
    const errors = await restrictedImports(
      'web/src/features/search/Probe.tsx',
      [
        "import { uploadQueue } from '../upload/upload-queue';",
        "import { useBrowserListing } from '../browser/useBrowserListing';",
        'export const probe = [uploadQueue, useBrowserListing];',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
  });

  it('refuses a way round through the features folder', async () => {
    const errors = await restrictedImports(
      'web/src/features/upload/Probe.tsx',
      "import { toast } from '../../features/notifications/internal-queue';\nexport const probe = toast;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('lets a feature use the entry points other features lend out, and its own modules', async () => {
    const code = [
      "import { FileThumbnail } from '../browser/FileThumbnail';",
      "import { toast } from '../notifications/toast';",
      "import { helper } from './helper';",
      'export const probe = [FileThumbnail, toast, helper];',
      '',
    ].join('\n');
    expect(await restrictedImports('web/src/features/search/Probe.tsx', code)).toEqual([]);
  });
});
