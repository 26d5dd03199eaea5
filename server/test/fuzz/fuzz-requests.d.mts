import type fc from 'fast-check';

/** Ids and names one account owns, as the generator picks them. */
export interface FuzzAccount {
  email: string;
  fileIds?: string[];
  folderIds?: string[];
  linkIds?: string[];
  tusIds?: string[];
  thumbnailIds?: string[];
  appPasswordIds?: string[];
  fileTokens?: string[];
  shareTokens?: string[];
  davNames?: string[];
  /** `Basic …` for the account's WebDAV app password. */
  basicAuth?: string;
}

export interface FuzzContext {
  /** Whose session sends the requests. */
  attacker: FuzzAccount;
  /** Whose data must come out unchanged. */
  victim: FuzzAccount;
  forgedCookies?: string[];
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** `session`: the runner adds the attacker's live cookies and `uuid` (unless the request forges its own). */
  auth: 'session' | 'none';
  /** The route template it was drawn for, e.g. `PATCH /file-service/rename`. */
  route: string;
}

export const nastyString: fc.Arbitrary<string>;
export function encodeSegment(value: unknown): string;
export function fuzzRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest>;
export const routeNames: string[];
export function requestStream(ctx: FuzzContext, seed: number, n: number, batch?: number): Generator<FuzzRequest>;
export function describeRequest(request: FuzzRequest): string;
