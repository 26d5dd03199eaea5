import type { AdminUserPage } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { accountOf, type SignedUp } from './support.js';

const ACCOUNTS = 1500;
const FILES_EACH = 4;

describe('admin area: many accounts', () => {
  let t: TestApp;
  let admin: SignedUp;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    admin = await accountOf(t, 'admin');
    const db = t.app.database.db;
    // Rows straight into the tables: the listing is under test, not sign-up. Equal creation times and sizes, so only the id orders them.
    const at = Date.now();
    const ids = Array.from({ length: ACCOUNTS }, (_, i) => `bulk${String(i).padStart(5, '0')}`);
    for (let i = 0; i < ids.length; i += 200) {
      const chunk = ids.slice(i, i + 200);
      await db
        .insertInto('account')
        .values(
          chunk.map((id) => ({
            id,
            email: `${id}@example.com`,
            emailKey: `${id}@example.com`,
            passwordHash: 'x',
            emailVerified: 1,
            verifyEmailSentAt: null,
            resetEmailSentAt: null,
            createdAt: at,
            updatedAt: at,
            role: 'user' as const,
            disabledAt: null,
            deletedAt: null,
            quotaBytes: null,
            lastActiveAt: null,
          })),
        )
        .execute();
      const files = chunk.flatMap((id) =>
        Array.from({ length: FILES_EACH }, (_, n) => ({
          id: `${id}f${n}`,
          ownerId: id,
          folderId: null,
          filename: `${id}-${n}.bin`,
          nameKey: `${id}-${n}.bin`,
          size: 10,
          contentType: 'application/octet-stream',
          mediaKind: null,
          sha256: 'x',
          crc32: null,
          storageKey: `${id}k${n}`,
          wrappedKey: 'x',
          uploadedAt: at,
          updatedAt: at,
          trashedAt: null,
          trashedVia: null,
          linkType: null,
          linkToken: null,
          thumbnailId: null,
          createdAt: at,
          contentAuthorId: id,
          contentVia: null,
        })),
      );
      await db.insertInto('file').values(files).execute();
    }
  }, 120_000);
  afterAll(() => t.close());

  it('pages through every account once, in a stable order among equals, each page quickly', async () => {
    const seen: string[] = [];
    let slowest = 0;
    for (let offset = 0; ; offset += 200) {
      const started = performance.now();
      const response = await admin.browser.get(`/admin-service/users?sort=usedBytes&order=desc&offset=${offset}&limit=200`);
      slowest = Math.max(slowest, performance.now() - started);
      const page = response.json<AdminUserPage>();
      expect(page.total).toBe(ACCOUNTS + 1);
      seen.push(...page.users.map((u) => u.id));
      if (page.users.length < 200) break;
    }
    expect(seen).toHaveLength(ACCOUNTS + 1);
    expect(new Set(seen).size).toBe(ACCOUNTS + 1);
    const bulk = seen.filter((id) => id.startsWith('bulk'));
    expect(bulk).toEqual([...bulk].sort().reverse());
    // One grouped query per page, not one per account: far under a second even on a busy machine.
    expect(slowest).toBeLessThan(2000);
    const one = (await admin.browser.get('/admin-service/users?search=bulk00042')).json<AdminUserPage>();
    expect(one.users).toEqual([expect.objectContaining({ id: 'bulk00042', files: FILES_EACH, usedBytes: FILES_EACH * 10 })]);
  });
});
