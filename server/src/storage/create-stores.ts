import type { StorageConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { ChunkedEncryptedStore, type EncryptedStoreOptions } from './encrypted.store.js';
import { LocalDiskStore } from './local-disk.store.js';
import { S3BlobStore } from './s3.store.js';

/** The one place that looks at which driver is configured. */
export function createBlobStore(config: StorageConfig): BlobStore {
  switch (config.driver) {
    case 'fs':
      return new LocalDiskStore(config.root);
    case 's3':
      return S3BlobStore.fromConfig(config);
  }
}

export function createEncryptedStore(blobStore: BlobStore, masterKey: Buffer, options?: EncryptedStoreOptions): ChunkedEncryptedStore {
  return new ChunkedEncryptedStore(blobStore, masterKey, options);
}
