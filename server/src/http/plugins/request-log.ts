import type { FastifyRequest } from 'fastify';

/** Share-link and e-mailed tokens ride in these paths; the logs keep the route, not the secret. */
const SECRET_PATHS: RegExp[] = [
  /^(\/file-service\/public\/(?:info|download)\/[^/?]+\/)[^/?]+/,
  /^(\/public-download\/[^/?]+\/)[^/?]+/,
  /^(\/(?:reset-password|verify-email)\/)[^/?]+/,
];

export function redactUrl(url: string): string {
  for (const pattern of SECRET_PATHS) if (pattern.test(url)) return url.replace(pattern, '$1[redacted]');
  return url;
}

/** Fastify's request log line, with secrets in the URL replaced. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
