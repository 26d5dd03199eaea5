import type { StorageUsageDto } from '@nimbus/common';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { driveApi, ROOT } from '../../api/drive.api';
import { folderKeys, storageKeys } from '../../api/query-keys';
import { fetchStorage } from '../../api/storage.api';
import { formatBytes } from '../format/format-size';
import { toast } from '../notifications/toast';

export function notEnoughStorageMessage(needed: number, left: number): string {
  return `Not enough storage: this upload needs ${formatBytes(needed)} but only ${formatBytes(Math.max(0, left))} is left`;
}

/** One message however many uploads of a batch the quota stops. */
const QUOTA_TOAST = 'quota-exceeded';

const bytesLeft = (usage: StorageUsageDto) => (usage.quotaBytes === null ? Infinity : usage.quotaBytes - usage.usedBytes);

/**
 * Whether `needed` bytes fit in what the quota leaves; says why not when they do not. Without a
 * quota, or when the use cannot be read, the upload goes ahead and the server has the last word.
 */
export async function ensureStorageRoom(queryClient: QueryClient, needed: number): Promise<boolean> {
  let left: number;
  try {
    left = bytesLeft(await fetchStorage(queryClient));
    // A refusal is worth a fresh read: files deleted a moment ago may have made the room.
    if (needed > left) left = bytesLeft(await fetchStorage(queryClient, 0));
  } catch {
    return true;
  }
  if (needed <= left) return true;
  toast.error(notEnoughStorageMessage(needed, left), { toastId: QUOTA_TOAST });
  return false;
}

export const OWNER_STORAGE_MESSAGE = "Not enough storage in the owner's drive for this upload";

interface TusResponse {
  getStatus?: () => number;
  getBody?: () => string;
}

function codeInBody(body: string | undefined): unknown {
  try {
    return (JSON.parse(body ?? '') as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
  }
}

/**
 * A refusal of the quota, from a plain request (ApiError) or a resumable one (tus keeps the response).
 * By its code: a file over the server's size limit is a 413 too (PAYLOAD_TOO_LARGE), and fails silently like any other.
 */
export function isQuotaExceeded(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'QUOTA_EXCEEDED';
  const response = (error as { originalResponse?: TusResponse | null } | null)?.originalResponse;
  return response?.getStatus?.() === 413 && codeInBody(response.getBody?.()) === 'QUOTA_EXCEEDED';
}

/** Whether folder `into` was shared with the account (its info is usually cached: the page on screen read it). */
async function isSharedFolder(queryClient: QueryClient, into: string): Promise<boolean> {
  if (into === ROOT) return false;
  const info = await queryClient
    .fetchQuery({ queryKey: folderKeys.info(into), queryFn: () => driveApi.folderInfo(into) })
    .catch(() => null);
  return Boolean(info?.shared);
}

/**
 * The server refused an upload into folder `into` for the quota: say so with the figures, read afresh. Into a folder
 * shared with the account it is the owner's quota, whose figures are not the account's to know.
 */
export async function reportQuotaExceeded(queryClient: QueryClient, needed: number, into: string): Promise<void> {
  if (await isSharedFolder(queryClient, into)) {
    toast.error(OWNER_STORAGE_MESSAGE, { toastId: QUOTA_TOAST });
    return;
  }
  await queryClient.invalidateQueries({ queryKey: storageKeys.all });
  const left = await fetchStorage(queryClient).then(bytesLeft, () => Infinity);
  const message = Number.isFinite(left)
    ? notEnoughStorageMessage(needed, left)
    : `Not enough storage: this upload needs ${formatBytes(needed)}`;
  toast.error(message, { toastId: QUOTA_TOAST });
}
