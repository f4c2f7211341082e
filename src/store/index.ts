export * from './types.ts';
export { DamagedFileError, StorageFullError, UnsafePathError, StoreClosedError, isStorageFull } from './errors.ts';
export { openStore, type OpenStoreOptions } from './lowdb-store.ts';
export { readLiveLock, type LockInfo } from './lock.ts';
