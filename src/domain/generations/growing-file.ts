/**
 * A file's bytes while they are being made (the MP3 of a first download, issue 27): every download that asks meanwhile
 * gets a stream of its own that starts with the pieces made so far and follows the new ones as they come. A reader
 * that goes away only stops its own stream: the pieces, and the making of them, carry on for the others and for
 * storage.
 */
import { Readable } from 'node:stream';

export class GrowingFile {
  readonly #pieces: Uint8Array[] = [];
  /** The finished file, once there is one. */
  #whole: Uint8Array | undefined;
  readonly #readers = new Set<Readable>();
  #state: 'growing' | 'ended' | 'failed' = 'growing';
  #error: Error | undefined;
  readonly #started: Promise<void>;
  #start!: () => void;
  #fail!: (error: Error) => void;

  constructor() {
    this.#started = new Promise<void>((resolve, reject) => {
      this.#start = resolve;
      this.#fail = reject;
    });
    // A failure nobody waited for is the encode's own to report.
    this.#started.catch(() => {});
  }

  /** Resolves once there is a first piece (or the file ended without one); rejects when it failed before one. */
  started(): Promise<void> {
    return this.#started;
  }

  append(piece: Uint8Array): void {
    if (this.#state !== 'growing' || piece.length === 0) return;
    this.#pieces.push(piece);
    for (const reader of this.#readers) reader.push(piece);
    this.#start();
  }

  /**
   * No more pieces: every stream ends after the ones it has; `whole`, the finished file, is what a stream asked for
   * from now on gets (and what a stream that had no piece yet gets, should the maker have given none).
   */
  end(whole: Uint8Array): void {
    if (this.#state !== 'growing') return;
    if (this.#pieces.length === 0) this.append(whole);
    this.#whole = whole;
    this.#state = 'ended';
    for (const reader of this.#readers) reader.push(null);
    this.#readers.clear();
    this.#start();
  }

  /** The making failed: every stream is destroyed with `error` (a download cut short, never a shorter file). */
  fail(error: Error): void {
    if (this.#state !== 'growing') return;
    this.#state = 'failed';
    this.#error = error;
    for (const reader of this.#readers) reader.destroy(error);
    this.#readers.clear();
    this.#fail(error);
  }

  /** A stream of the whole file from its first byte: what is there already, then what comes. */
  reader(): Readable {
    const readers = this.#readers;
    const reader = new Readable({
      read() {},
      destroy(error, done) {
        readers.delete(reader);
        done(error);
      },
    });
    if (this.#whole) {
      reader.push(this.#whole);
      reader.push(null);
      return reader;
    }
    for (const piece of this.#pieces) reader.push(piece);
    if (this.#state === 'ended') reader.push(null);
    else if (this.#state === 'failed') reader.destroy(this.#error);
    else readers.add(reader);
    return reader;
  }
}
