import { BackupError } from './manifest.js';

/** libpq's environment variable for each connection parameter a postgres:// URL may carry. */
const LIBPQ_ENV: Readonly<Record<string, string>> = {
  host: 'PGHOST',
  hostaddr: 'PGHOSTADDR',
  port: 'PGPORT',
  dbname: 'PGDATABASE',
  user: 'PGUSER',
  password: 'PGPASSWORD',
  passfile: 'PGPASSFILE',
  require_auth: 'PGREQUIREAUTH',
  channel_binding: 'PGCHANNELBINDING',
  service: 'PGSERVICE',
  options: 'PGOPTIONS',
  application_name: 'PGAPPNAME',
  client_encoding: 'PGCLIENTENCODING',
  connect_timeout: 'PGCONNECT_TIMEOUT',
  sslmode: 'PGSSLMODE',
  requiressl: 'PGREQUIRESSL',
  sslnegotiation: 'PGSSLNEGOTIATION',
  sslcompression: 'PGSSLCOMPRESSION',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  sslcertmode: 'PGSSLCERTMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcrl: 'PGSSLCRL',
  sslcrldir: 'PGSSLCRLDIR',
  sslsni: 'PGSSLSNI',
  requirepeer: 'PGREQUIREPEER',
  ssl_min_protocol_version: 'PGSSLMINPROTOCOLVERSION',
  ssl_max_protocol_version: 'PGSSLMAXPROTOCOLVERSION',
  gssencmode: 'PGGSSENCMODE',
  krbsrvname: 'PGKRBSRVNAME',
  gsslib: 'PGGSSLIB',
  gssdelegation: 'PGGSSDELEGATION',
  target_session_attrs: 'PGTARGETSESSIONATTRS',
  load_balance_hosts: 'PGLOADBALANCEHOSTS',
};

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new BackupError(`DATABASE_URL has a malformed ${what}`);
  }
}

/** A PostgreSQL client tool's run: what it is given on its command line, and what in its environment. */
export interface ToolCommand {
  tool: 'pg_dump' | 'pg_restore';
  args: string[];
  /** Set over the inherited environment. */
  env: Record<string, string>;
}

/** pg_dump of the snapshot `snapshotId` exported by another session, into `file` (custom format). */
export function pgDumpCommand(databaseUrl: string, snapshotId: string, file: string): ToolCommand {
  return {
    tool: 'pg_dump',
    args: ['--format=custom', '--no-owner', '--no-acl', `--snapshot=${snapshotId}`, `--file=${file}`],
    env: pgToolEnv(databaseUrl),
  };
}

/** pg_restore of a custom-format dump into the database, all or nothing. */
export function pgRestoreCommand(databaseUrl: string, file: string): ToolCommand {
  return {
    tool: 'pg_restore',
    // pg_restore writes into a database only when given --dbname; left empty, every connection
    // parameter comes from the environment.
    args: ['--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', '--dbname=', file],
    env: pgToolEnv(databaseUrl),
  };
}

/**
 * The connection of a postgres:// URL as the environment variables pg_dump and pg_restore read,
 * so their command line, which any local user can list, carries no password. Parameters the URL
 * leaves out stay as the inherited environment has them, as they would with the URL itself.
 */
export function pgToolEnv(databaseUrl: string): Record<string, string> {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new BackupError('DATABASE_URL is not a valid postgres:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new BackupError('DATABASE_URL is not a postgres:// URL');
  const env: Record<string, string> = {};
  // An IPv6 address is bracketed in a URL, bare for libpq; a socket directory is percent-encoded.
  const host = decode(url.hostname.replace(/^\[(.*)\]$/, '$1'), 'host');
  if (host) env.PGHOST = host;
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decode(url.username, 'user name');
  if (url.password) env.PGPASSWORD = decode(url.password, 'password');
  const database = decode(url.pathname.replace(/^\//, ''), 'database name');
  if (database) env.PGDATABASE = database;
  // libpq reads query values percent-decoded only ("+" stays a plus), so URLSearchParams is not used.
  for (const pair of url.search.slice(1).split('&').filter(Boolean)) {
    const at = pair.indexOf('=');
    const name = decode(at < 0 ? pair : pair.slice(0, at), 'parameter name');
    const variable = Object.hasOwn(LIBPQ_ENV, name) ? LIBPQ_ENV[name] : undefined;
    if (!variable) throw new BackupError(`DATABASE_URL has the parameter "${name}", which pg_dump and pg_restore do not know`);
    env[variable] = decode(at < 0 ? '' : pair.slice(at + 1), `value of ${name}`);
  }
  return env;
}
