import type { FuzzContext } from './fuzz-requests.mjs';

export interface ClientRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The client address the server should see (inject's remoteAddress, or X-Forwarded-For behind a trusted proxy). */
  remoteAddress?: string;
}

export interface ClientResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

export type Client = (request: ClientRequest) => Promise<ClientResponse>;

export class Account {
  constructor(client: Client, email: string, password: string);
  readonly email: string;
  readonly uuid: string;
  id: string;
  cookieFor(url: string): string;
  request(
    method: string,
    url: string,
    options?: { json?: unknown; body?: string | Buffer; headers?: Record<string, string>; remoteAddress?: string },
  ): Promise<ClientResponse>;
  signIn(remoteAddress?: string): Promise<boolean>;
}

export interface FuzzStats {
  requests: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  serverErrors: string[];
  transportErrors: string[];
  reSignIns: number;
}

export function wireHeaders(headers: Record<string, string>): Record<string, string>;
export function seedAccounts(client: Client): Promise<{ attacker: Account; victim: Account; ctx: FuzzContext; victimTusIds: string[] }>;
export function snapshotVictim(victim: Account, tusIds: string[]): Promise<unknown>;
export function runFuzz(options: {
  client: Client;
  ctx: FuzzContext;
  attacker: Account;
  seed: number;
  runs: number;
  concurrency?: number;
  onProgress?: (stats: FuzzStats) => void;
}): Promise<FuzzStats>;
