import type { EncryptedStore } from '../../storage/blob-store.js';
import type { FileService } from '../drive/file.service.js';
import type { ShareService } from '../sharing/share.service.js';
import { fileAsset, type StoredAsset } from './stored-asset.js';

/** The bytes of files, for their owner or for whoever holds a link. */
export class DownloadService {
  constructor(
    private readonly files: FileService,
    private readonly shares: ShareService,
    private readonly store: EncryptedStore,
  ) {}

  async ownFile(ownerId: string, fileId: string): Promise<StoredAsset> {
    return fileAsset(await this.files.get(ownerId, fileId), this.store);
  }

  /** `consume`: a one-time link is spent by this call (not by HEAD). */
  async sharedFile(fileId: string, token: string, consume: boolean): Promise<{ asset: StoredAsset; isOneTime: boolean }> {
    const { file, isOneTime } = await this.shares.openDownload(fileId, token, consume);
    return { asset: fileAsset(file, this.store), isOneTime };
  }
}
