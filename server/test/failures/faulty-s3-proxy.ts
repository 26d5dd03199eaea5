import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'slow-down' | 'reset' | null;

/** Which fault the `attempt`th request (1-based) for one method and address gets. */
export type FaultPlan = (request: { method: string; url: string; attempt: number }) => Fault;

const SLOW_DOWN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>';
/** A reset comes once this much of a request body has gone through: the part is cut mid-way. */
const RESET_AFTER_BYTES = 256 * 1024;

/**
 * An HTTP proxy in front of an S3 server that injects faults: a 503 SlowDown as AWS sends when
 * throttling, or a connection reset halfway through a request body (after part of it reached the
 * server). Requests are counted per method and address, so each retry of one part is told apart.
 */
export class FaultyS3Proxy {
  private server: http.Server | null = null;
  private readonly attempts = new Map<string, number>();
  readonly injected = { 'slow-down': 0, reset: 0 };
  plan: FaultPlan = () => null;

  constructor(private readonly upstream: string) {}

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const key = `${req.method} ${req.url}`;
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const fault = this.plan({ method: req.method ?? 'GET', url: req.url ?? '/', attempt });
    if (fault === 'slow-down') {
      this.injected['slow-down']++;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(SLOW_DOWN) }).end(SLOW_DOWN);
      return;
    }
    const headers = { ...req.headers };
    delete headers.expect;
    const upstream = http.request(`${this.upstream}${req.url}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => req.socket.destroy());
    let forwarded = 0;
    req.on('data', (chunk: Buffer) => {
      if (fault === 'reset' && forwarded + chunk.length > RESET_AFTER_BYTES) {
        this.injected.reset++;
        upstream.destroy();
        req.socket.resetAndDestroy();
        return;
      }
      forwarded += chunk.length;
      upstream.write(chunk);
    });
    req.on('end', () => upstream.end());
  }
}
