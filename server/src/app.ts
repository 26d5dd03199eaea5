import cookie from '@fastify/cookie';
import { LIMITS } from '@nimbus/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { AccountTokenRepository } from './db/repositories/account-token.repository.js';
import { AccountRepository } from './db/repositories/account.repository.js';
import { LoginThrottleRepository } from './db/repositories/login-throttle.repository.js';
import { SessionRepository } from './db/repositories/session.repository.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerErrorHandler } from './http/plugins/error-handler.js';
import { registerSecurityHeaders } from './http/plugins/security-headers.js';
import { registerWebApp } from './http/plugins/web-app.js';
import { healthRoutes } from './http/routes/health/health.routes.js';
import { userRoutes } from './http/routes/users/users.routes.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { AccessTokenSigner } from './security/access-token.js';
import { AccountService } from './services/account.service.js';
import { systemClock, type Clock } from './services/clock.js';
import { SessionService } from './services/session.service.js';

export interface AppDeps {
  clock?: Clock;
  mailer?: Mailer | null;
  database?: DatabaseHandle;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
  }
}

/** Builds the whole server (database migrated, routes registered) without listening. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'] },
    genReqId: () => randomUUID(),
    trustProxy: true,
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
  });

  const database = deps.database ?? openDatabase(config.db);
  const mailer = deps.mailer === undefined ? createMailer(config.mail) : deps.mailer;
  app.decorate('database', database);
  app.addHook('onClose', async () => {
    mailer?.close();
    await database.close();
  });
  await migrateToLatest(database.db);

  const clock = deps.clock ?? systemClock;
  const sessions = new SessionService(
    new SessionRepository(database.db),
    new AccessTokenSigner(config.secrets.secretKey, LIMITS.accessTokenMs),
    clock,
  );
  const accounts = new AccountService(
    new AccountRepository(database.db),
    new AccountTokenRepository(database.db),
    new LoginThrottleRepository(database.db),
    sessions,
    mailer,
    clock,
    { signupOpen: config.signupOpen, appUrl: config.http.appUrl },
    app.log,
  );

  registerErrorHandler(app);
  await registerSecurityHeaders(app);
  await app.register(cookie);
  const requireAuth = registerAuth(app, sessions);

  healthRoutes(app);
  userRoutes(app, { accounts, sessions, requireAuth, secureCookies: config.http.secureCookies });
  await registerWebApp(app, config.webRoot);

  return app;
}
