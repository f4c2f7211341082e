/**
 * Hands big buffers' memory back at once. A typed array's memory otherwise goes only when the garbage collector
 * next runs, and a long render allocates so little on the JavaScript heap that this can be many seconds and
 * several hundred megabytes of dead buffers later (issue 29: a 180 s render with stems grew by 1.8 GB). Detaching
 * a buffer (ArrayBuffer.prototype.transfer to nothing) frees it now; the array is left empty (length 0), so only
 * arrays nothing reads again may be freed.
 */

/** ES2024's resizable-buffer methods (Node 22 has them; the project's TypeScript lib is ES2023). */
type Detachable = ArrayBuffer & { readonly detached: boolean; transfer(length?: number): ArrayBuffer };

export function free(...arrays: (ArrayBufferView | null | undefined)[]): void {
  for (const array of arrays) {
    if (!array) continue;
    const buffer = array.buffer as Detachable;
    // A view of part of a buffer (a subarray, a pooled Buffer) shares it with others; a SharedArrayBuffer cannot be detached.
    if (!(buffer instanceof ArrayBuffer) || buffer.detached || array.byteLength !== buffer.byteLength) continue;
    buffer.transfer(0);
  }
}
