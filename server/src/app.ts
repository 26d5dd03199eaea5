import cookie from '@fastify/cookie';
import { LIMITS } from '@nimbus/common';
import Fastify, {
  type FastifyInstance,
  type FastifySchemaCompiler,
  type FastifySerializerCompiler,
  type FastifyServerOptions,
} from 'fastify';
import { randomUUID } from 'node:crypto';
import { DEFAULT_VIDEO, type Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { AccountTokenRepository } from './db/repositories/account-token.repository.js';
import { AccountRepository } from './db/repositories/account.repository.js';
import { KnownDeviceRepository } from './db/repositories/known-device.repository.js';
import { LoginThrottleRepository } from './db/repositories/login-throttle.repository.js';
import { SessionRepository } from './db/repositories/session.repository.js';
import { AnswerCache } from './http/answer-cache.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerBodyTimeout } from './http/plugins/body-timeout.js';
import { UrlRedaction } from './http/plugins/request-log.js';
import { registerErrorHandler } from './http/plugins/error-handler.js';
import { registerSecurityHeaders } from './http/plugins/security-headers.js';
import { answerUnroutable, registerPublicHeaders } from './http/plugins/public-headers.js';
import { registerWebApp } from './http/plugins/web-app.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { healthRoutes } from './http/routes/health/health.routes.js';
import { userRoutes } from './http/routes/users/users.routes.js';
import { twoFactorRoutes } from './http/routes/users/two-factor.routes.js';
import { TwoFactorRepository } from './db/repositories/two-factor.repository.js';
import { SecondFactorTickets } from './services/accounts/second-factor-tickets.js';
import { TwoFactorService } from './services/accounts/two-factor.service.js';
import { SecretBox } from './security/secret-box.js';
import { SSO_CALLBACK_PATH, singleSignOnRoutes } from './http/routes/users/single-sign-on.routes.js';
import { SingleSignOnService } from './services/accounts/single-sign-on.service.js';
import { OidcRepository } from './db/repositories/oidc.repository.js';
import { appPasswordRoutes } from './http/routes/users/app-passwords.routes.js';
import { sessionRoutes } from './http/routes/users/sessions.routes.js';
import { DevicesService } from './services/accounts/devices.service.js';
import { exportRoutes } from './http/routes/users/export.routes.js';
import { AppPasswordRepository } from './db/repositories/app-password.repository.js';
import { AppPasswordService } from './services/accounts/app-password.service.js';
import { PasskeyRepository } from './db/repositories/passkey.repository.js';
import { PasskeyService } from './services/accounts/passkey.service.js';
import { passkeyRoutes } from './http/routes/passkeys/passkeys.routes.js';
import { fileRoutes } from './http/routes/files/files.routes.js';
import { folderRoutes } from './http/routes/folders/folders.routes.js';
import { uploadRoutes } from './http/routes/uploads/uploads.routes.js';
import { UnitOfWork } from './db/unit-of-work.js';
import { JOB } from './jobs/job-names.js';
import { JobQueue } from './jobs/queue.js';
import { JobWorker } from './jobs/worker.js';
import { DriveEvents } from './services/drive/drive-events.js';
import { FileService } from './services/drive/file.service.js';
import { FolderService } from './services/drive/folder.service.js';
import { MoveService } from './services/drive/move.service.js';
import { TrashService } from './services/drive/trash.service.js';
import { UploadService } from './services/uploads/upload.service.js';
import { FileVersions } from './services/versions/file-versions.js';
import { VersionThinning } from './services/versions/version-thinning.service.js';
import { handleVersionsThin } from './jobs/handlers/versions-thin.job.js';
import { RestoreAsOfService } from './services/versions/restore-as-of.service.js';
import { restoreAsOfRoutes } from './http/routes/versions/restore-as-of.routes.js';
import { FileVersionService } from './services/versions/file-version.service.js';
import { versionRoutes } from './http/routes/versions/versions.routes.js';
import { FolderUploadService } from './services/uploads/folder-upload.service.js';
import type { BlobStore } from './storage/blob-store.js';
import { createBlobStore, createEncryptedStore } from './storage/create-stores.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { SessionTokenSigner } from './security/access-token.js';
import { DEFAULT_PASSWORD_HASH_COST, setPasswordHashCost } from './security/password.js';
import { AccountService } from './services/accounts/account.service.js';
import { systemClock, type Clock } from './services/clock.js';
import { HousekeepingService } from './services/drive/housekeeping.service.js';
import { SessionService } from './services/accounts/session.service.js';
import { searchRoutes } from './http/routes/search/search.routes.js';
import { createSearch } from './search/search-module.js';
import { IndexRequests } from './search/index-requests.js';
import { createModelStore } from './model-store/model-store.js';
import { FileMediaRepository, FileRenditionRepository } from './db/repositories/file-media.repository.js';
import { LivePhotoRepository } from './db/repositories/live-photo.repository.js';
import { handleThumbnail } from './jobs/handlers/thumbnail.job.js';
import { handleVideoProbe, handleVideoRendition } from './jobs/handlers/video-rendition.job.js';
import { RenditionService } from './services/media/rendition.service.js';
import { handleLivePhoto, handleLivePhotoBackfill } from './jobs/handlers/live-photo.job.js';
import { handleThumbnailBackfill } from './jobs/handlers/thumbnail-backfill.job.js';
import { mediaRoutes } from './http/routes/media/media.routes.js';
import { sharingRoutes } from './http/routes/sharing/sharing.routes.js';
import { shareLinkRoutes } from './http/routes/share-links/share-links.routes.js';
import { sharedRoutes } from './http/routes/share-links/shared.routes.js';
import { ShareLinkRepository } from './db/repositories/share-link.repository.js';
import { ShareLinkService } from './services/sharing/share-link.service.js';
import { SharedAccessService } from './services/sharing/shared-access.service.js';
import { zipRoutes } from './http/routes/zip/zip.routes.js';
import { MediaService } from './services/media/media.service.js';
import { ShareService } from './services/sharing/share.service.js';
import { DownloadService } from './services/downloads/download.service.js';
import { StreamTokenService } from './services/downloads/stream-token.service.js';
import { ThumbnailService } from './services/media/thumbnail.service.js';
import { LivePhotoService } from './services/media/live-photo.service.js';
import { WorkerPool, compiledWorker } from './workers/pool.js';
import { ZipService } from './services/downloads/zip.service.js';
import { DavRepository } from './db/repositories/dav.repository.js';
import { DavDrive } from './dav/dav-drive.js';
import { DavServer } from './dav/dav-server.js';
import { DavDriveService } from './services/webdav/dav-drive.service.js';
import { DavLockService } from './services/webdav/dav-lock.service.js';
import { DavPropertyService } from './services/webdav/dav-property.service.js';
import { SharedDavService } from './services/webdav/shared-dav.service.js';
import { davRoutes } from './http/routes/dav/dav.routes.js';
import { TusUploadRepository } from './db/repositories/tus-upload.repository.js';
import { tusRoutes } from './http/routes/uploads/tus.routes.js';
import { TusUploadService } from './services/uploads/tus-upload.service.js';
import { ResumableStore } from './storage/resumable-store.js';
import { createIntegrity, scrubOptionsOf } from './integrity/create-integrity.js';
import { healthDetailsRoutes } from './http/routes/health/health-details.routes.js';
import { HealthDetailsService } from './services/health/health-details.service.js';
import { Metrics } from './observability/metrics.js';
import { registerMetrics } from './http/plugins/metrics.js';
import { JobStatsRepository } from './db/repositories/job-stats.repository.js';
import { SecurityEventRepository } from './db/repositories/security-event.repository.js';
import { SecurityLogService } from './services/accounts/security-log.service.js';
import { activityRoutes } from './http/routes/users/activity.routes.js';
import { QuotaPolicy } from './services/admin/quota-policy.js';
import { ServerSettingRepository } from './db/repositories/server-setting.repository.js';
import { ServerSettingsService } from './services/admin/server-settings.service.js';
import { AdminUserRepository } from './db/repositories/admin-user.repository.js';
import { AdminUserService } from './services/admin/admin-user.service.js';
import { AdminSettingsService } from './services/admin/admin-settings.service.js';
import { AdminOverviewRepository } from './db/repositories/admin-overview.repository.js';
import { AdminOverviewService } from './services/admin/admin-overview.service.js';
import { AccountDeletionRepository } from './db/repositories/account-deletion.repository.js';
import { AccountDeletionService } from './services/admin/account-deletion.service.js';
import { adminRoutes } from './http/routes/admin/admin.routes.js';
import { storageUsageRoutes } from './http/routes/admin/storage-usage.routes.js';
import { serverVersion } from './version.js';
import { ItemShareRepository } from './db/repositories/item-share.repository.js';
import { ItemAccess } from './services/sharing/item-access.js';
import { ItemShareService } from './services/sharing/item-share.service.js';
import { SharedDriveService } from './services/sharing/shared-drive.service.js';
import { itemShareRoutes } from './http/routes/item-shares/item-shares.routes.js';
import { InvitationRepository } from './db/repositories/invitation.repository.js';
import { SignupRepository } from './db/repositories/signup.repository.js';
import { InvitationService } from './services/accounts/invitation.service.js';
import { SignupGate } from './services/accounts/signup-gate.js';
import { invitationRoutes } from './http/routes/invitations/invitations.routes.js';
import { createPeople } from './people/people-module.js';
import { peopleRoutes } from './http/routes/people/people.routes.js';

export interface AppDeps {
  clock?: Clock;
  mailer?: Mailer | null;
  database?: DatabaseHandle;
  blobStore?: BlobStore;
  /** ffmpeg for video poster frames: a path or a name on PATH (default `ffmpeg`); null turns them off. */
  ffmpegPath?: string | null;
  /** ffprobe for videos' playability: default `ffprobe` beside ffmpeg; null turns renditions' probes off. */
  ffprobePath?: string | null;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: NodeJS.WritableStream;
}

/** Work that runs beside the HTTP server: the job worker and periodic schedules. */
export interface Background {
  start(): void;
  stop(): Promise<void>;
  /** Runs every due job now (tests use it instead of waiting for the poller). */
  drainJobs(): Promise<number>;
  /** Enqueues the periodic jobs (idempotent across processes). */
  schedule(): Promise<void>;
}

const TRASH_PURGE_EVERY_MS = 60 * 60_000;
/** Memory for kept list and user answers (about 300 lists of 50 files). */
const ANSWER_CACHE_BYTES = 8 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    background: Background;
    /** Kept list and user answers (tests read its counters). */
    answers: AnswerCache;
  }
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
const acceptAnyRequest: FastifySchemaCompiler<unknown> = () => () => true;
const plainJson: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);
/**
 * Route schemas are for the API reference only (see registerOpenApi): handlers check requests with
 * `parseInput`, and answers are written as plain JSON. Given as factories rather than set on the
 * instance, these keep Fastify from loading its own compilers, Ajv and fast-json-stringify, which
 * took 2.3 MB of heap for the life of the process. (Their types are Ajv's, hence the cast.)
 */
const schemaCompilers = { buildValidator: () => acceptAnyRequest, buildSerializer: () => plainJson } as unknown as CompilersFactory;

/** A hop count trusts that many proxies nearest the server; the rest pass through as Fastify takes them. */
function trustProxyOption(trust: Config['http']['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** ffprobe ships with ffmpeg: beside it when ffmpeg is given as a path, else on PATH. */
function ffprobeBeside(ffmpegPath: string | null | undefined): string | null {
  if (ffmpegPath === null) return null;
  if (ffmpegPath === undefined) return 'ffprobe';
  const slash = ffmpegPath.lastIndexOf('/');
  return slash === -1 ? 'ffprobe' : `${ffmpegPath.slice(0, slash + 1)}ffprobe`;
}

/** Builds the whole server (database migrated, routes registered) without listening. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const loggedUrls = new UrlRedaction();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      serializers: { req: loggedUrls.serializeRequest },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    genReqId: () => randomUUID(),
    frameworkErrors: answerUnroutable,
    trustProxy: trustProxyOption(config.http.trustProxy),
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
    connectionTimeout: config.http.idleTimeoutMs,
    schemaController: { compilersFactory: schemaCompilers },
  });
  loggedUrls.watch(app);
  registerBodyTimeout(app, config.http.bodyTimeoutMs);
  const passwordCost = config.passwordHashCost ?? DEFAULT_PASSWORD_HASH_COST;
  setPasswordHashCost(passwordCost);
  if (passwordCost < DEFAULT_PASSWORD_HASH_COST)
    app.log.warn({ passwordHashCost: passwordCost }, 'PASSWORD_HASH_COST is below 15: new password hashes are cheaper to crack');

  const database = deps.database ?? openDatabase(config.db);
  const mailer = deps.mailer === undefined ? createMailer(config.mail) : deps.mailer;
  app.decorate('database', database);
  const blobStore = deps.blobStore ?? createBlobStore(config.storage);
  const store = createEncryptedStore(blobStore, config.secrets.encryptionKey);
  app.addHook('onClose', async () => {
    await background.stop();
    await search.close();
    await livePhotos.close();
    await people.close();
    mailer?.close();
    await store.close();
    await database.close();
  });
  await migrateToLatest(database.db);

  const clock = deps.clock ?? systemClock;
  const integrity = createIntegrity({
    db: database.db,
    blobStore,
    masterKey: config.secrets.encryptionKey,
    clock,
    log: app.log,
    scrub: scrubOptionsOf(config.integrity),
  });
  const metrics = new Metrics({
    processMetrics: Boolean(config.metricsToken),
    countJobs: () => new JobStatsRepository(database.db).countByNameAndState(clock.now()),
  });
  const securityLog = new SecurityLogService(new SecurityEventRepository(database.db), clock);
  const settings = new ServerSettingsService(
    new ServerSettingRepository(database.db),
    {
      signup: config.signup,
      defaultQuotaBytes: config.storageQuotaBytes,
      trashRetentionDays: config.trashRetentionDays,
      usersMayInvite: false,
      requireTwoFactor: false,
    },
    clock,
  );
  const quota = new QuotaPolicy(database.db, config.storageQuotaBytes);
  const sessionRepository = new SessionRepository(database.db);
  const accountTokens = new AccountTokenRepository(database.db);
  const loginThrottle = new LoginThrottleRepository(database.db);
  const invitationRows = new InvitationRepository(database.db);
  const housekeeping = new HousekeepingService(sessionRepository, accountTokens, loginThrottle, clock, invitationRows);
  const accountRows = new AccountRepository(database.db);
  const invitations = new InvitationService(
    invitationRows,
    accountRows,
    settings,
    loginThrottle,
    mailer,
    clock,
    { appUrl: config.http.appUrl },
    app.log,
    securityLog,
  );
  const signups = new SignupGate(new SignupRepository(database.db, database.dialect), invitationRows, invitations, settings);
  const sessions = new SessionService(
    sessionRepository,
    SessionTokenSigner.fromSecret(config.secrets.secretKey, LIMITS.accessTokenMs),
    clock,
    `refresh-rotation:${config.secrets.secretKey}`,
    accountRows,
  );
  const passkeyRows = new PasskeyRepository(database.db);
  const twoFactorRows = new TwoFactorRepository(database.db);
  const twoFactor = new TwoFactorService({
    repository: twoFactorRows,
    tickets: new SecondFactorTickets(twoFactorRows, clock),
    throttle: loginThrottle,
    secrets: new SecretBox(config.secrets.encryptionKey, 'two-factor'),
    security: securityLog,
    clock,
    emailOf: async (accountId) => (await accountRows.findById(accountId))?.email ?? '',
    isRequired: async () => (await settings.get()).requireTwoFactor === true,
    passkeysOf: (accountId) => passkeyRows.countOwned(accountId),
  });
  const accounts = new AccountService(
    accountRows,
    accountTokens,
    loginThrottle,
    new KnownDeviceRepository(database.db),
    sessions,
    mailer,
    clock,
    { appUrl: config.http.appUrl, accountRateLimit: config.accountRateLimit },
    app.log,
    securityLog,
    signups,
    twoFactor,
  );

  const uow = new UnitOfWork(database.db, database.dialect);
  const davRepository = new DavRepository(database.db);
  const queue = new JobQueue(database.db, database.dialect, clock);
  const searchConfig = config.search;
  const indexRequests = new IndexRequests(queue, clock, searchConfig.enabled);
  const video = config.video ?? DEFAULT_VIDEO;
  const events = new DriveEvents(queue, indexRequests, () => worker.notify(), { videoRenditions: video.transcode });
  const folders = new FolderService(uow, events, clock);
  const files = new FileService(uow, folders, events, clock);
  const trash = new TrashService(uow, queue, events, clock);
  const moves = new MoveService(uow, folders, trash, events, clock);
  const fileVersions = new FileVersions(config.versions);
  const uploads = new UploadService(
    uow,
    folders,
    store,
    events,
    clock,
    { maxUploadBytes: config.maxUploadBytes },
    quota,
    fileVersions,
    metrics,
  );
  const tus = new TusUploadService(
    new TusUploadRepository(database.db),
    uow,
    folders,
    uploads,
    new ResumableStore(blobStore, config.secrets.encryptionKey, { hashPool: store.hashPool }),
    queue,
    clock,
    {
      maxUploadBytes: config.maxUploadBytes,
      quota,
      expiryMs: config.resumableUploadExpiryHours * 3_600_000,
    },
    metrics,
  );
  const fileMedia = new FileMediaRepository(database.db, database.dialect);
  const thumbnails = new ThumbnailService(uow, fileMedia, store, clock, {
    ffmpegPath: deps.ffmpegPath === undefined ? 'ffmpeg' : deps.ffmpegPath,
  });
  const renditionRepo = new FileRenditionRepository(database.db, database.dialect);
  const renditions = new RenditionService(uow, renditionRepo, store, queue, clock, {
    enabled: video.transcode,
    ffmpegPath: deps.ffmpegPath === undefined ? 'ffmpeg' : deps.ffmpegPath,
    ffprobePath: deps.ffprobePath === undefined ? ffprobeBeside(deps.ffmpegPath) : deps.ffprobePath,
    maxHeight: video.maxHeight,
    threads: video.threads,
  });
  const media = new MediaService(files, fileMedia, store, {
    repo: renditionRepo,
    enabled: video.transcode,
    requestProbe: async (file) => {
      await events.videoStored(database.db, file);
      worker.notify();
    },
  });
  const livePhotoRepo = new LivePhotoRepository(database.db, database.dialect);
  const livePhotos = new LivePhotoService(
    uow,
    livePhotoRepo,
    store,
    clock,
    // Metadata of one photo at a time, on a thread with a small heap: a crafted file ends that thread only.
    new WorkerPool({
      file: compiledWorker('media/live-photo.worker.js'),
      threads: 1,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      idleTimeoutMs: 30_000,
    }),
    { ffmpegPath: deps.ffmpegPath === undefined ? 'ffmpeg' : deps.ffmpegPath },
  );
  const people = createPeople({
    db: database.db,
    files: uow.repos.files,
    media: fileMedia,
    store,
    queue,
    clock,
    masterKey: config.secrets.encryptionKey,
    wake: () => worker.notify(),
  });
  const shares = new ShareService(uow, files, clock, securityLog);
  const zips = new ZipService(uow, store);
  const accountDeletion = new AccountDeletionService(new AccountDeletionRepository(database.db), trash, tus, queue);
  const streamTokens = new StreamTokenService(config.secrets.secretKey, new SessionRepository(database.db), clock);

  // Fetched in the background on first start: until it is ready, search runs on the bundled pipeline.
  // With search off it is never needed, and shows as off.
  const smartModel = createModelStore(searchConfig.enabled ? searchConfig.smartModel : null, app.log);
  app.addHook('onClose', () => smartModel.close());
  void smartModel.ensure();
  const search = createSearch(searchConfig, {
    db: database.db,
    dialect: database.dialect,
    store,
    queue,
    clock,
    log: app.log,
    requests: indexRequests,
    model: smartModel,
    people: people.matcher,
  });

  const worker = new JobWorker(
    database.db,
    database.dialect,
    metrics.countJobFailures({
      [JOB.blobDelete]: async ({ keys }) => {
        for (const key of keys) await store.delete(key);
      },
      [JOB.trashPurge]: async () => {
        // Read each run: an administrator's change applies from the next purge, in every process.
        await trash.purgeExpired((await settings.get()).trashRetentionDays);
      },
      [JOB.housekeepingPurge]: async () => {
        await housekeeping.purge();
        await davRepository.purgeExpiredLocks(clock.now());
        await davRepository.purgeOrphanProperties();
        await itemShares.pruneOrphans();
        await tus.purgeExpired();
        await securityLog.prune();
        await accountDeletion.requeuePending();
      },
      [JOB.fileThumbnail]: handleThumbnail(thumbnails),
      [JOB.thumbnailBackfill]: handleThumbnailBackfill(fileMedia, queue, clock),
      [JOB.videoProbe]: handleVideoProbe(renditions),
      [JOB.videoRendition]: handleVideoRendition(renditions),
      [JOB.fileMotion]: handleLivePhoto(livePhotos),
      [JOB.fileMotionBackfill]: handleLivePhotoBackfill(livePhotoRepo, queue, clock),
      [JOB.accountDelete]: async ({ accountId }) => {
        await accountDeletion.run(accountId);
      },
      [JOB.integrityScrub]: async () => {
        await integrity.scrub?.runBatch();
      },
      [JOB.versionsThin]: handleVersionsThin(new VersionThinning(uow, fileVersions, quota, events, clock)),
      ...search.handlers,
      ...people.handlers,
    }),
    clock,
    app.log,
    // Indexing and thumbnails each have their own CPU slots: a hostile file stuck in one leaves the
    // other running, and light jobs never wait behind either.
    // Video renditions (minutes of ffmpeg each) take turns in a slot of their own, and so do face scans.
    {
      concurrency: 3,
      cpuHeavy: [
        search.cpuHeavy,
        { names: [JOB.fileThumbnail, JOB.fileMotion], slots: 1 },
        { names: [JOB.videoRendition], slots: 1 },
        people.cpuHeavy,
      ],
    },
  );
  let timer: NodeJS.Timeout | null = null;
  let scrubTimer: NodeJS.Timeout | null = null;
  const enqueueScrub = async () => {
    if (integrity.scrub) await queue.enqueue(JOB.integrityScrub, {}, { dedupeKey: JOB.integrityScrub });
  };
  const background: Background = {
    start() {
      worker.start();
      void background.schedule();
      timer = setInterval(
        () => void background.schedule().catch((err: unknown) => app.log.error({ err }, 'scheduling failed')),
        TRASH_PURGE_EVERY_MS,
      );
      timer.unref();
      if (integrity.scrub) {
        scrubTimer = setInterval(
          () =>
            void enqueueScrub().then(
              () => worker.notify(),
              (err: unknown) => app.log.error({ err }, 'scheduling the scrub failed'),
            ),
          integrity.scrub.options.intervalMs,
        );
        scrubTimer.unref();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (scrubTimer) clearInterval(scrubTimer);
      await worker.stop();
    },
    async drainJobs() {
      return worker.drain();
    },
    async schedule() {
      await queue.enqueue(JOB.trashPurge, {}, { dedupeKey: JOB.trashPurge });
      await queue.enqueue(JOB.housekeepingPurge, {}, { dedupeKey: JOB.housekeepingPurge });
      await queue.enqueue(JOB.versionsThin, {}, { dedupeKey: JOB.versionsThin });
      await queue.enqueue(JOB.thumbnailBackfill, {}, { dedupeKey: `${JOB.thumbnailBackfill}:0` });
      await queue.enqueue(JOB.fileMotionBackfill, {}, { dedupeKey: `${JOB.fileMotionBackfill}:0` });
      await search.schedule();
      await people.schedule();
      await enqueueScrub();
      worker.notify();
    },
  };
  app.decorate('background', background);

  // Before any route: it sees each one as it is added.
  await registerOpenApi(app);
  registerErrorHandler(app);
  registerMetrics(app, metrics, config.metricsToken ?? null);
  registerSecurityHeaders(app, { https: config.http.secureCookies });
  registerPublicHeaders(app);
  await app.register(cookie);
  const requireAuth = registerAuth(app, sessions);
  const answers = new AnswerCache(ANSWER_CACHE_BYTES);
  app.decorate('answers', answers);

  healthRoutes(app);
  healthDetailsRoutes(app, {
    details: new HealthDetailsService(integrity.repo, blobStore, integrity.scrub, clock, smartModel),
    token: config.integrity?.healthToken ?? null,
  });
  userRoutes(app, { accounts, sessions, signups, answers, requireAuth, secureCookies: config.http.secureCookies });
  twoFactorRoutes(app, { accounts, twoFactor, requireAuth, secureCookies: config.http.secureCookies });
  const sso = config.oidc
    ? new SingleSignOnService(
        config.oidc,
        `${config.http.appUrl}${SSO_CALLBACK_PATH}`,
        new OidcRepository(database.db),
        accountRows,
        accounts,
        signups,
        clock,
      )
    : null;
  singleSignOnRoutes(app, { sso, appUrl: config.http.appUrl, secureCookies: config.http.secureCookies });
  invitationRoutes(app, { invitations, clock, requireAuth });
  const appPasswords = new AppPasswordService(new AppPasswordRepository(database.db), clock, securityLog);
  activityRoutes(app, { securityLog, requireAuth });
  appPasswordRoutes(app, { appPasswords, requireAuth });
  const passkeys = new PasskeyService(
    passkeyRows,
    accounts,
    loginThrottle,
    clock,
    { appUrl: config.http.appUrl },
    securityLog,
    new SecondFactorTickets(twoFactorRows, clock),
    twoFactor,
  );
  passkeyRoutes(app, { passkeys, accounts, requireAuth, secureCookies: config.http.secureCookies });
  sessionRoutes(app, { devices: new DevicesService(sessions, securityLog), requireAuth, secureCookies: config.http.secureCookies });
  const downloads = new DownloadService(files, shares, store);
  const itemShareRows = new ItemShareRepository(database.db);
  const access = new ItemAccess(uow.repos, itemShareRows);
  const sharedDrive = new SharedDriveService(uow.repos, itemShareRows, access);
  const itemShares = new ItemShareService(
    uow.repos,
    itemShareRows,
    new AccountRepository(database.db),
    securityLog,
    mailer,
    clock,
    { appUrl: config.http.appUrl },
    app.log,
  );
  itemShareRoutes(app, { itemShares, requireAuth });
  fileRoutes(app, { files, trash, moves, downloads, answers, access, sharedDrive, itemShares, livePhotos, requireAuth });
  folderRoutes(app, { folders, trash, answers, access, sharedDrive, itemShares, requireAuth });
  restoreAsOfRoutes(app, { restoreAsOf: new RestoreAsOfService(uow, trash, fileVersions, events, clock), requireAuth });
  uploadRoutes(app, {
    uploads,
    folderUploads: new FolderUploadService({ uploads, folders, trash }),
    maxUploadBytes: config.maxUploadBytes,
    access,
    requireAuth,
  });
  versionRoutes(app, {
    versions: new FileVersionService({ uow, access, store, events, versions: fileVersions, clock }),
    uploads,
    access,
    maxUploadBytes: config.maxUploadBytes,
    requireAuth,
  });
  tusRoutes(app, { tus, access, requireAuth });
  sharingRoutes(app, { shares, downloads, requireAuth });
  mediaRoutes(app, { media, streamTokens, requireAuth, secureCookies: config.http.secureCookies, access, livePhotos });
  zipRoutes(app, { zips, access, requireAuth });
  exportRoutes(app, { zips, requireAuth });
  const shareLinks = new ShareLinkRepository(database.db);
  shareLinkRoutes(app, { links: new ShareLinkService(uow, shareLinks, clock, securityLog), clock, requireAuth });
  sharedRoutes(app, {
    access: new SharedAccessService({
      uow,
      links: shareLinks,
      throttle: loginThrottle,
      media,
      zips,
      uploads,
      tus,
      store,
      clock,
      secretKey: config.secrets.secretKey,
    }),
    tus,
    maxUploadBytes: config.maxUploadBytes,
    secureCookies: config.http.secureCookies,
  });
  searchRoutes(app, { search: search.service, sharedDrive, requireAuth });
  peopleRoutes(app, { people: people.service, livePhotos, requireAuth });
  adminRoutes(app, {
    users: new AdminUserService({
      users: new AdminUserRepository(database.db, database.dialect),
      settings,
      sessions,
      accounts,
      queue,
      security: securityLog,
      clock,
      twoFactor,
      wake: () => worker.notify(),
    }),
    settings: new AdminSettingsService(settings, securityLog),
    overview: new AdminOverviewService({
      counts: new AdminOverviewRepository(database.db),
      jobs: new JobStatsRepository(database.db),
      scrub: integrity.scrub,
      storageDir: config.storage.driver === 'fs' ? config.storage.root : null,
      version: serverVersion(),
      model: smartModel,
      clock,
    }),
    requireAuth,
  });
  storageUsageRoutes(app, { quota, requireAuth });
  const davProperties = new DavPropertyService(database.db, uow);
  const davDrive = new DavDrive({
    data: new DavDriveService({ uow, dav: davRepository, store }),
    properties: davProperties,
    folders,
    files,
    trash,
    uploads,
    shared: new SharedDavService(itemShares, access),
  });
  davRoutes(app, {
    dav: new DavServer(davDrive, new DavLockService(database.db, uow, clock), davProperties, {
      maxUploadBytes: config.maxUploadBytes,
      quotaOf: (ownerId) => quota.limitOf(ownerId),
      appUrl: config.http.appUrl,
    }),
    accounts,
    appPasswords,
  });
  await registerWebApp(app, config.webRoot);

  return app;
}
