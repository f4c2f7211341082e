/** Store errors beyond the ones the Store contract declares in types.ts. */

/** A relative path would leave the data dir (.., absolute, NUL, or through a symlink). */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError' as const;
  constructor(readonly path: string) {
    super('The file path is not inside the data dir.');
  }
}

/** The store was used after close(). */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError' as const;
  constructor() {
    super('The store is closed.');
  }
}
