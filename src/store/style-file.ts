/**
 * styles.json in the data dir: every account's own styles, held in memory, saved whole and crash-safe (like
 * accounts.json) before a change is answered.
 */
import { AtomicJsonFile, type CoalescingWriter } from './atomic-file.ts';
import type { StyleRecords } from './repository.ts';
import { recordOfArrays } from './shape.ts';
import { StyleNameTakenError, type CustomStyleRecord } from '../domain/custom-styles.ts';

export const STYLE_FILE = 'styles.json';

interface StyleData {
  styles: CustomStyleRecord[];
}

const copy = (style: CustomStyleRecord): CustomStyleRecord => structuredClone(style);

export class StyleFile implements StyleRecords {
  readonly #data: StyleData;
  readonly #file: AtomicJsonFile<StyleData>;

  private constructor(file: AtomicJsonFile<StyleData>, stored: StyleData | null) {
    this.#file = file;
    this.#data = stored ?? { styles: [] };
  }

  static async open(path: string, writer: CoalescingWriter): Promise<StyleFile> {
    const file = new AtomicJsonFile<StyleData>(path, writer, {
      check: (value) => recordOfArrays(value, { styles: ['account_id', 'name', 'base', 'description'] }),
    });
    return new StyleFile(file, await file.read());
  }

  async list(accountId: string): Promise<CustomStyleRecord[]> {
    return this.#data.styles
      .filter((style) => style.account_id === accountId)
      .map(copy)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async get(accountId: string, name: string): Promise<CustomStyleRecord | undefined> {
    const style = this.#data.styles.find((s) => s.account_id === accountId && s.name === name);
    return style && copy(style);
  }

  async add(style: CustomStyleRecord): Promise<void> {
    if (this.#data.styles.some((s) => s.account_id === style.account_id && s.name === style.name))
      throw new StyleNameTakenError(style.name);
    this.#data.styles.push(copy(style));
    await this.#save(() => this.#data.styles.pop());
  }

  async delete(accountId: string, name: string): Promise<boolean> {
    const at = this.#data.styles.findIndex((s) => s.account_id === accountId && s.name === name);
    if (at === -1) return false;
    const [removed] = this.#data.styles.splice(at, 1);
    await this.#save(() => removed && this.#data.styles.splice(at, 0, removed));
    return true;
  }

  /** Saves, or puts memory back as it was when the save fails, so nothing unsaved is ever read. */
  async #save(undo: () => unknown): Promise<void> {
    try {
      await this.#file.write(this.#data);
    } catch (error) {
      undo();
      throw error;
    }
  }
}
