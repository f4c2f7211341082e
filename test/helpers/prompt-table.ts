/** The prompt table (test/engine/prompt-table.json): prompts people write, with what the engine should understand. */
import { readFileSync } from 'node:fs';
import type { Mode } from '../../engine/types.ts';

export interface Row {
  prompt: string;
  language: string;
  genre?: string | string[];
  /** In the meter's beat unit: a 6/8 lullaby's 120–192 are eighths (40–64 dotted quarters). */
  bpm?: [number, number];
  /** "dark" (minor family or dorian), "bright" (major, mixolydian, lydian) or an exact mode. */
  mode?: 'dark' | 'bright' | Mode;
  meter?: string;
  /** Patches that must be in the arrangement. */
  instruments?: string[];
  /** "solo X": X leads, no drums and at most one other instrument. */
  solo?: boolean;
  noDrums?: boolean;
  vocals?: boolean;
  rain?: boolean;
  /** Words each of which some warning must mention. */
  warnings?: string[];
  /** A name, place or topic the title (and the lyrics, when sung) must mention. */
  subject?: string;
  /** The occasion the lyrics must mention when sung. */
  occasion?: string;
  pending?: string;
}

export const PROMPT_TABLE: Row[] = JSON.parse(
  readFileSync(new URL('../engine/prompt-table.json', import.meta.url), 'utf8'),
);
