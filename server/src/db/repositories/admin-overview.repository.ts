import { sql } from 'kysely';
import type { Db } from '../database.js';

export interface ServerCounts {
  accounts: { total: number; active: number; disabled: number; admins: number; invitationsPending: number };
  files: number;
  folders: number;
  bytes: { files: number; trash: number; thumbnails: number; versions: number; renditions: number };
}

/** Totals over the whole server for the admin area's overview: counts and sizes only. */
export class AdminOverviewRepository {
  constructor(private readonly db: Db) {}

  async counts(now: number): Promise<ServerCounts> {
    const n = (v: unknown) => Number(v ?? 0);
    const accounts = await sql<Record<string, unknown>>`
      select count(*) as total,
        sum(case when disabled_at is null then 1 else 0 end) as active,
        sum(case when disabled_at is not null then 1 else 0 end) as disabled,
        sum(case when role = 'admin' and disabled_at is null then 1 else 0 end) as admins
      from account where deleted_at is null`.execute(this.db);
    const other = await sql<Record<string, unknown>>`
      select
        (select count(*) from invitation where accepted_at is null and revoked_at is null and expires_at > ${now}) as invitations,
        (select count(*) from file) as files,
        (select count(*) from folder) as folders,
        (select coalesce(sum(size), 0) from file where trashed_at is null) as file_bytes,
        (select coalesce(sum(size), 0) from file where trashed_at is not null) as trash_bytes,
        (select coalesce(sum(size), 0) from file_version) as version_bytes,
        (select coalesce(sum(size), 0) from file_rendition) as rendition_bytes,
        (select coalesce(sum(coalesce(thumbnail_size, 0) + coalesce(preview_size, 0)), 0) from file_media) as thumbnail_bytes`.execute(
      this.db,
    );
    const a = accounts.rows[0] ?? {};
    const o = other.rows[0] ?? {};
    return {
      accounts: {
        total: n(a.total),
        active: n(a.active),
        disabled: n(a.disabled),
        admins: n(a.admins),
        invitationsPending: n(o.invitations),
      },
      files: n(o.files),
      folders: n(o.folders),
      bytes: {
        files: n(o.fileBytes),
        trash: n(o.trashBytes),
        thumbnails: n(o.thumbnailBytes),
        versions: n(o.versionBytes),
        renditions: n(o.renditionBytes),
      },
    };
  }
}
