import type { ServerSettingsDto, UpdateServerSettingsBody } from '@nimbus/common';
import type { ServerSettingRepository } from '../../db/repositories/server-setting.repository.js';
import type { Clock } from '../clock.js';

export type ServerSettings = ServerSettingsDto;

/**
 * Settings an administrator changes in the admin area. The environment gives the defaults; what an
 * administrator set is kept in the database and read on each use (one small query), so a change
 * takes effect at once in every server process, without a restart.
 */
export class ServerSettingsService {
  constructor(
    private readonly repo: ServerSettingRepository,
    private readonly defaults: ServerSettings,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<ServerSettings> {
    const stored = await this.repo.all();
    const settings = { ...this.defaults };
    for (const key of Object.keys(settings) as (keyof ServerSettings)[]) {
      const value = stored.get(key);
      if (value !== undefined) Object.assign(settings, { [key]: JSON.parse(value) as unknown });
    }
    return settings;
  }

  async update(changes: UpdateServerSettingsBody): Promise<ServerSettings> {
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) values[key] = JSON.stringify(value);
    await this.repo.put(values, this.clock.now());
    return this.get();
  }
}
