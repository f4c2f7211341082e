/**
 * The render's progress on a terminal: one line on stderr, redrawn in place, with the phase and the percentage.
 * It exists only when stderr is a terminal and the output is not --json, so pipes and scripts see nothing of it.
 */
import { ENCODE_PROGRESS } from '../../engine/index.ts';

const WIDTH = 24;

export type Phase = 'Composing' | 'Rendering' | 'Encoding';

/** The engine reports one fraction: interpreting and composing come before its first report, encoding from ENCODE_PROGRESS. */
export function phaseOf(fraction: number | null): Phase {
  if (fraction === null) return 'Composing';
  return fraction < ENCODE_PROGRESS ? 'Rendering' : 'Encoding';
}

export function progressLine(fraction: number | null): string {
  const share = Math.min(1, Math.max(0, fraction ?? 0));
  const filled = Math.round(share * WIDTH);
  return `${phaseOf(fraction).padEnd(9)} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%`;
}

export class ProgressBar {
  #shown = '';

  constructor(private readonly write: (text: string) => void) {}

  /** Redraws the line when what it says has changed (null: nothing rendered yet). */
  update(fraction: number | null): void {
    const line = progressLine(fraction);
    if (line === this.#shown) return;
    this.#shown = line;
    this.write(`\r${line}`);
  }

  /** Clears the line, so what is printed next starts clean. */
  done(): void {
    if (this.#shown === '') return;
    this.write(`\r${' '.repeat(this.#shown.length)}\r`);
    this.#shown = '';
  }
}
