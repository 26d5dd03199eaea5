import type { Db } from '../database.js';

/** Server settings an administrator changed, as JSON by key. */
export class ServerSettingRepository {
  constructor(private readonly db: Db) {}

  async all(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('serverSetting').select(['key', 'value']).execute();
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  async put(values: Record<string, string>, now: number): Promise<void> {
    const rows = Object.entries(values).map(([key, value]) => ({ key, value, updatedAt: now }));
    if (rows.length === 0) return;
    await this.db
      .insertInto('serverSetting')
      .values(rows)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updatedAt: eb.ref('excluded.updatedAt') })),
      )
      .execute();
  }
}
