/**
 * What services, jobs and search write to the log: the part of the server's logger (pino, through
 * Fastify) they use, so they depend on neither and tests can pass a plain object.
 */
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}
