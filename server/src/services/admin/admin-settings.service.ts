import type { ServerSettingsDto, UpdateServerSettingsBody } from '@nimbus/common';
import type { SecurityRecorder } from '../accounts/security-log.service.js';
import type { Caller } from '../caller.js';
import type { ServerSettingsService } from './server-settings.service.js';

/** The settings page of the admin area: a change is recorded in the administrator's log. */
export class AdminSettingsService {
  constructor(
    private readonly settings: ServerSettingsService,
    private readonly security: SecurityRecorder,
  ) {}

  get(): Promise<ServerSettingsDto> {
    return this.settings.get();
  }

  async update(actorId: string, changes: UpdateServerSettingsBody, caller: Caller): Promise<ServerSettingsDto> {
    const updated = await this.settings.update(changes);
    const changed = Object.keys(changes).filter((k) => changes[k as keyof UpdateServerSettingsBody] !== undefined);
    if (changed.length > 0)
      await this.security.record(actorId, { type: 'admin-settings-changed', caller, details: { name: changed.join(', ') } });
    return updated;
  }
}
