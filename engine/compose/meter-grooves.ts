/**
 * Drum grooves of each meter, for a style played in a meter other than its preset's. Stretching a 4/4 grid
 * over a 3/4 bar puts hits on uneven fractions of the beat, and a listener (or a beat tracker) then hears a
 * tempo a third too fast; these grids fall on the meter's own beats instead: the waltz's one-two-three, the
 * compound meters' dotted-quarter pulse, 5/4 as 3+2 and 7/8 as 2+2+3.
 *
 * Grids use the preset's notation (one character per step, '.' rest, '1'–'9' velocity): sixteenths in x/4
 * meters, eighths in x/8 ones. Written with kick, snare and hat; `meterKit` swaps in the style's own backbeat
 * and time-keeper (a folk rim and shaker, a house clap).
 */
import { defined } from '../checked.ts';
import type { Drum, Preset } from '../types.ts';
import { meterName, type Meter } from './meter.ts';

type DrumKit = NonNullable<Preset['drums']>;

const GROOVES: Record<string, DrumKit> = {
  '3/4': {
    stepsPerBar: 12,
    main: { kick: '9...........', snare: '....6...6...', hat: '6.3.5.3.5.3.' },
    fill: { kick: '9.......7...', snare: '....6...6.78', hat: '6.3.5.3.....' },
    half: { kick: '8...........', hat: '....4...4...' },
  },
  '4/4': {
    stepsPerBar: 16,
    main: { kick: '8.......7.......', snare: '....7.......7...', hat: '5.3.5.3.5.3.5.3.' },
    fill: { kick: '8.......7.......', snare: '....7.......7.67', hat: '5.3.5.3.5.3.....' },
    half: { kick: '7...............', snare: '........6.......', hat: '4...3...4...3...' },
  },
  // 3+2: the kick opens each group, the snare closes it.
  '5/4': {
    stepsPerBar: 20,
    main: { kick: '9...........8.......', snare: '........7.......7...', hat: '6.3.5.3.5.3.6.3.5.3.' },
    fill: { kick: '9...........8.......', snare: '........7.......7.78', hat: '6.3.5.3.5.3.6.3.....' },
    half: { kick: '8...........7.......', hat: '5...4...4...5...4...' },
  },
  // Compound: two dotted-quarter pulses, kick on the first, backbeat on the second, eighths leaning on both.
  '6/8': {
    stepsPerBar: 6,
    main: { kick: '9.....', snare: '...7..', hat: '633533' },
    fill: { kick: '9.....', snare: '...778', hat: '633...' },
    half: { kick: '8.....', hat: '5..4..' },
  },
  '12/8': {
    stepsPerBar: 12,
    main: { kick: '9.....8.....', snare: '...7.....7..', hat: '633533633533' },
    fill: { kick: '9.....8.....', snare: '...7.....778', hat: '633533633...' },
    half: { kick: '8.....7.....', hat: '5..4..5..4..' },
  },
  // 2+2+3: pulses on the first, third and fifth eighths.
  '7/8': {
    stepsPerBar: 7,
    main: { kick: '9...8..', snare: '..7...5', hat: '6353533' },
    fill: { kick: '9...8..', snare: '..7.778', hat: '635....' },
    half: { kick: '8...7..', hat: '5.4.4..' },
  },
};

const TIME_KEEPERS: readonly Drum[] = ['hat', 'ride', 'shaker'];
const BACKBEATS: readonly Drum[] = ['snare', 'clap', 'rim'];

/** The plain 4/4 backbeat. */
export const BACKBEAT: DrumKit = defined(GROOVES['4/4'], 'the 4/4 groove');

/**
 * The meter's groove played on the drums of `style` (its kit's backbeat and time-keeper); null for a meter
 * without grooves of its own.
 */
export function meterKit(meter: Meter, style: DrumKit | null): DrumKit | null {
  const groove = GROOVES[meterName(meter)];
  if (!groove) return null;
  const played = (candidates: readonly Drum[]) => candidates.find((d) => /[1-9]/.test(style?.main[d] ?? ''));
  const keeper = played(TIME_KEEPERS) ?? 'hat';
  const backbeat = played(BACKBEATS) ?? 'snare';
  const onKit = (grid: DrumKit['main'], fill: boolean): DrumKit['main'] => {
    const out: DrumKit['main'] = {};
    for (const [drum, pattern] of Object.entries(grid) as [Drum, string][]) {
      // Fills stay on the snare: a drummer rolls on it whatever the groove's backbeat is.
      const to = drum === 'hat' ? keeper : drum === 'snare' && !fill ? backbeat : drum;
      out[to] = pattern;
    }
    return out;
  };
  return {
    stepsPerBar: groove.stepsPerBar,
    main: onKit(groove.main, false),
    fill: onKit(groove.fill, true),
    half: onKit(groove.half, false),
  };
}
