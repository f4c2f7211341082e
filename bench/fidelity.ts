/**
 * Are the musical fields heard? Every style × 2 seeds with an explicit bpm and key, then each meter on a
 * few styles, each measured by the independent analysers of test/helpers/analysis (bpm-tools, aubio, the
 * chroma key finder): tempo error in bpm (against the asked tempo, its double or half) and the MIREX key score.
 *
 *   npm run bench:fidelity [-- --styles folk,rock --seeds 1 --meters-only]
 *
 * The test (test/engine/fidelity-fields.test.ts) checks a sample of this; the sweep takes ~15 min on two cores.
 */
import { parseArgs } from 'node:util';
import { listStyles, type GenerationRequest, type MusicalFields } from '../engine/index.ts';
import { createTrackRenderer } from '../test/helpers/analysis/renders.ts';
import {
  describeFigures,
  measureFields,
  type FieldCase,
  type FieldFigures,
} from '../test/helpers/analysis/field-fidelity.ts';

const SECONDS = 30;
const SEEDS = [4242, 777];
/** Tempi and keys spread over the range, one per style in turn, so every style is asked for something it would not choose. */
const TEMPI = [72, 97, 110, 128, 84, 140, 100, 120];
const KEYS = ['F# minor', 'Bb major', 'D minor', 'E major', 'C minor', 'A major', 'G minor', 'Eb major'];
const METER_STYLES = ['folk', 'rock', 'pop', 'jazz', 'house'];
const METER_CASES: { meter: string; bpm: number }[] = [
  { meter: '3/4', bpm: 97 },
  { meter: '6/8', bpm: 90 },
  { meter: '12/8', bpm: 80 },
  { meter: '5/4', bpm: 110 },
  { meter: '7/8', bpm: 100 },
];

const request = (style: string, seed: number, music: MusicalFields): GenerationRequest => ({
  prompt: `an instrumental ${style} track`,
  duration: SECONDS,
  style,
  instrumental: true,
  seed,
  music,
});

export function styleCases(styles: readonly string[], seeds: readonly number[]): FieldCase[] {
  return styles.flatMap((style, i) =>
    seeds.map((seed) => ({
      name: `${style}-${seed}`,
      request: request(style, seed, { bpm: TEMPI[i % TEMPI.length]!, key: KEYS[i % KEYS.length]! }),
    })),
  );
}

export function meterCases(styles: readonly string[], seed: number): FieldCase[] {
  return styles.flatMap((style) =>
    METER_CASES.map(({ meter, bpm }) => ({
      name: `${style}-${meter.replace('/', '-')}-${bpm}`,
      request: request(style, seed, { bpm, timeSignature: meter }),
    })),
  );
}

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);

function summarise(title: string, figures: FieldFigures[]): void {
  const errors = figures.map((f) => f.tempoError).filter((e): e is number => e !== null);
  const keys = figures.map((f) => f.keyScore).filter((k): k is number => k !== null);
  const within = errors.filter((e) => e <= 1).length;
  console.log(
    `${title}: tempo within 1 bpm (or double/half) ${within}/${errors.length}, mean error ${mean(errors).toFixed(2)} bpm` +
      (keys.length > 0 ? `; key MIREX mean ${mean(keys).toFixed(3)} over ${keys.length}` : ''),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { styles: { type: 'string' }, seeds: { type: 'string' }, 'meters-only': { type: 'boolean' } },
  });
  const styles = values.styles?.split(',') ?? listStyles().map((s) => s.name);
  const seeds = values.seeds ? SEEDS.slice(0, Number(values.seeds)) : SEEDS;
  const renderer = await createTrackRenderer({ prefix: 'tunesmith-bench-fidelity-' });
  try {
    const run = async (cases: FieldCase[]) => {
      for (const c of cases) void renderer.render(c.name, c.request);
      const figures: FieldFigures[] = [];
      for (const c of cases) {
        const f = await measureFields(renderer, c);
        console.log(describeFigures(f));
        figures.push(f);
      }
      return figures;
    };
    if (!values['meters-only']) summarise('styles × seeds (bpm + key)', await run(styleCases(styles, seeds)));
    const meterFigures = await run(meterCases(values.styles ? styles : METER_STYLES, SEEDS[0]!));
    for (const { meter } of METER_CASES)
      summarise(
        `meter ${meter}`,
        meterFigures.filter((f) => f.asked.meter === meter),
      );
  } finally {
    await renderer.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
