/**
 * Settings in the data dir: one small JSON file each, named after the setting (render-speed.json,
 * rate-limits.json, last-public-url.json), written crash-safely and read straight from disk (each is read once
 * at start, and the CLI reads last-public-url.json while no server runs).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoalescingWriter } from './atomic-file.ts';
import { DamagedSettingError } from './errors.ts';
import type { SettingName, Settings } from './repository.ts';

export const settingFile = (name: SettingName): string => `${name}.json`;

export class SettingsFile implements Settings {
  constructor(
    private readonly dataDir: string,
    private readonly writer: CoalescingWriter,
  ) {}

  async get(name: SettingName): Promise<unknown> {
    const path = join(this.dataDir, settingFile(name));
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new DamagedSettingError(path);
    }
  }

  put(name: SettingName, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    return this.writer.write(join(this.dataDir, settingFile(name)), () => text);
  }
}
