import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { AccountRepository } from '../../db/repositories/account.repository.js';
import { AdminUserRepository } from '../../db/repositories/admin-user.repository.js';
import { SecurityEventRepository } from '../../db/repositories/security-event.repository.js';
import { SecurityLogService } from '../../services/accounts/security-log.service.js';
import { emailKeyOf } from '../../services/accounts/account.service.js';
import { systemClock } from '../../services/clock.js';
import type { Command } from '../nimbus.js';
import { parseArgs, UsageError } from './args.js';

const USAGE = 'admin grant EMAIL | admin revoke EMAIL [--force]';

/**
 * Makes an account an administrator or takes the role back, from the server's shell: the way in
 * when nobody can sign in as an administrator. Revoking the last active administrator needs
 * `--force`, since the admin area then has nobody left to open it.
 */
export const adminCommand: Command = {
  summary: 'Grant or revoke the administrator role of an account.',
  usage: USAGE,
  async run(config, args) {
    let action: 'grant' | 'revoke';
    let email: string;
    let force: boolean;
    try {
      const parsed = parseArgs(args, { flags: ['--force'], values: [] });
      const [verb, address, ...rest] = parsed.positional;
      if ((verb !== 'grant' && verb !== 'revoke') || !address || rest.length > 0)
        throw new UsageError('Give grant or revoke, then one e-mail');
      action = verb;
      email = address;
      force = parsed.flags.has('--force');
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      console.error(`${err.message}\nUsage: npm run nimbus -- ${USAGE}`);
      return 2;
    }
    return changeRole(config, action, email, force);
  },
};

async function changeRole(config: Config, action: 'grant' | 'revoke', email: string, force: boolean): Promise<number> {
  const database = openDatabase(config.db);
  try {
    await migrateToLatest(database.db);
    const account = await new AccountRepository(database.db).findByEmailKey(emailKeyOf(email));
    if (!account || account.deletedAt !== null) {
      console.error(`No account has the e-mail ${email}.`);
      return 1;
    }
    const role = action === 'grant' ? 'admin' : 'user';
    if (account.role === role) {
      console.log(`${account.email} ${role === 'admin' ? 'is already an administrator' : 'is not an administrator'}.`);
      return 0;
    }
    const users = new AdminUserRepository(database.db, database.dialect);
    const now = systemClock.now();
    if (force) await users.update(account.id, { role }, now);
    else if (!(await users.updateKeepingAnAdmin(account.id, { role }, now))) {
      console.error(`${account.email} is the last active administrator; add --force to revoke the role anyway.`);
      return 1;
    }
    await new SecurityLogService(new SecurityEventRepository(database.db), systemClock).record(account.id, {
      type: 'admin-role-changed',
      details: { kind: 'account' },
    });
    console.log(`${account.email} ${role === 'admin' ? 'is now an administrator' : 'is no longer an administrator'}.`);
    return 0;
  } finally {
    await database.close();
  }
}
