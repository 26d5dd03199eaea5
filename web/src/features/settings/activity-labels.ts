import type { ActivityEventDto } from '@nimbus/common';

const quoted = (name: string | undefined) => (name ? `“${name}”` : 'an item');

/** One readable sentence per event of the security log. */
export function describeActivity(event: ActivityEventDto): string {
  const name = event.details?.name;
  const what = event.details?.itemType === 'folder' ? `folder ${quoted(name)}` : quoted(name);
  const linkKind = event.details?.kind === 'drop' ? 'File drop link' : 'Share link';
  switch (event.type) {
    case 'sign-in':
      if (event.details?.kind === 'passkey') return 'Signed in with a passkey';
      if (event.details?.kind === 'oidc') return 'Signed in with single sign-on';
      return 'Signed in';
    case 'sign-in-failed':
      if (event.details?.kind === 'webdav') return 'Failed WebDAV sign-in attempt (wrong app password)';
      if (event.details?.kind === 'webdav-throttled') return 'WebDAV sign-ins refused for a while after too many failed attempts';
      return 'Failed sign-in attempt (wrong password)';
    case 'sign-in-second-factor-failed':
      return 'Failed sign-in attempt (right password, wrong two-factor code)';
    case 'two-factor-enabled':
      return 'Two-factor sign-in turned on';
    case 'two-factor-disabled':
      return 'Two-factor sign-in turned off';
    case 'recovery-codes-made':
      return 'New two-factor recovery codes made';
    case 'recovery-code-used':
      return 'Signed in with a recovery code';
    case 'password-changed':
      return 'Password changed';
    case 'password-reset':
      return 'Password reset through an e-mailed link';
    case 'logout-all':
      return 'Signed out of all sessions';
    case 'session-signed-out':
      return `Signed out a session${event.details?.name ? ` (${event.details.name})` : ''} from Devices`;
    case 'app-password-created':
      return `App password ${quoted(name)} created`;
    case 'app-password-revoked':
      return `App password ${quoted(name)} revoked`;
    case 'passkey-added':
      return `Passkey ${quoted(name)} added`;
    case 'passkey-renamed':
      return `Passkey renamed to ${quoted(name)}`;
    case 'passkey-removed':
      return `Passkey ${quoted(name)} removed`;
    case 'file-link-public':
      return `Public link made for ${what}`;
    case 'file-link-one-time':
      return `One-time link made for ${what}`;
    case 'file-link-removed':
      return `Link removed from ${what}`;
    case 'share-link-created':
      return `${linkKind} created for ${what}`;
    case 'share-link-updated':
      return `${linkKind} changed for ${what}`;
    case 'share-link-revoked':
      return `${linkKind} revoked for ${what}`;
    case 'item-shared':
      return `Shared ${what} with ${event.details?.recipient ?? 'another account'}`;
    case 'item-share-changed':
      return `Changed the access of ${event.details?.recipient ?? 'another account'} to ${what}`;
    case 'item-share-removed':
      return `Stopped sharing ${what} with ${event.details?.recipient ?? 'another account'}`;
    case 'invitation-sent':
      return `Invitation sent to ${name ?? 'someone'}`;
    case 'invitation-revoked':
      return `Invitation to ${name ?? 'someone'} revoked`;
    case 'account-created-by-invitation':
      return 'Account created with an invitation';
    default:
      return describeAdminActivity(event);
  }
}

/** The admin area's actions: `kind: 'actor'` in the administrator's own log, naming the account acted on. */
function describeAdminActivity(event: ActivityEventDto): string {
  const byMe = event.details?.kind === 'actor';
  const account = quoted(event.details?.name);
  switch (event.type) {
    case 'admin-account-disabled':
      return byMe ? `Disabled the account ${account}` : 'Account disabled by an administrator';
    case 'admin-account-enabled':
      return byMe ? `Enabled the account ${account}` : 'Account enabled again by an administrator';
    case 'admin-quota-changed':
      return byMe ? `Changed the storage quota of ${account}` : 'Storage quota changed by an administrator';
    case 'admin-role-changed':
      return byMe ? `Changed the role of ${account}` : 'Role changed by an administrator';
    case 'admin-password-reset':
      return byMe ? `Started a password reset for ${account}` : 'Password reset started by an administrator';
    case 'admin-two-factor-reset':
      return byMe ? `Turned two-factor sign-in off for ${account}` : 'Two-factor sign-in turned off by an administrator';
    case 'admin-account-deleted':
      return `Deleted the account ${account}`;
    case 'admin-settings-changed':
      return 'Changed the server settings';
    default:
      return event.type;
  }
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iOS/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox on Linux" from a user agent; other clients (rclone, curl) by their own first word. */
export function describeClient(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser) return system ? `${browser} on ${system}` : browser;
  return userAgent.split(/[\s/]/)[0]!.slice(0, 40) || null;
}
