/**
 * Whether files add up to another, measured by sox (not the engine): the stems are mixed at unit gain with the
 * mix inverted, and the RMS of what is left is compared with the mix's own.
 */
import { run } from './exec.ts';
import { parseSoxStats, stats } from './loudness.ts';

/** RMS of (Σ parts − whole) relative to the RMS of the whole, dB. */
export async function residualDb(whole: string, parts: readonly string[]): Promise<number> {
  // -v on every input: sox then mixes at those gains instead of dividing by the count; -D: no dither added.
  const inputs = [...parts.flatMap((path) => ['-v', '1', path]), '-v', '-1', whole];
  const { stderr } = await run('sox', ['-D', '-m', ...inputs, '-n', 'stats']);
  return parseSoxStats(stderr).rmsDb - (await stats(whole)).rmsDb;
}
