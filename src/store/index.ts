export type {
  Repository,
  Transaction,
  GenerationPatch,
  CredentialRecords,
  WebhookRecords,
  DeliveryQuery,
  Settings,
  SettingName,
} from './repository.ts';
export type { BlobStore, BlobInfo, BlobRange } from './blob-store.ts';
export {
  BlobNotFoundError,
  DataDirLockedError,
  DataDirLockLostError,
  DamagedFileError,
  DamagedSettingError,
  StorageFullError,
  UnsafePathError,
  StoreClosedError,
  isStorageFull,
} from './errors.ts';
export { openStore, FileRepository, type OpenStoreOptions } from './file-repository.ts';
export { readLiveLock, type LockInfo } from './lock.ts';
