/** Hand-written sung lines for the singer's tests: syllables as "onset nucleus coda" phone strings. */
import type { SungNote } from '../../../engine/types.ts';

export interface SungNoteSpec {
  time: number;
  duration: number;
  midi: number;
  /** Space-separated ARPAbet phones, e.g. "S K" (empty string: none). */
  onset?: string;
  nucleus: string;
  coda?: string;
  legato?: boolean;
  velocity?: number;
}

const phones = (text: string | undefined) => (text ? text.split(' ').filter(Boolean) : []);

export function sungNote(spec: SungNoteSpec, index = 0): SungNote {
  return {
    time: spec.time,
    duration: spec.duration,
    midi: spec.midi,
    velocity: spec.velocity ?? 0.8,
    beat: spec.time * 2,
    legato: spec.legato ?? false,
    continuation: false,
    line: 0,
    word: index,
    syllable: {
      text: spec.nucleus.toLowerCase(),
      onset: phones(spec.onset),
      nucleus: spec.nucleus,
      coda: phones(spec.coda),
      stress: 1,
    },
  };
}

export const sungLine = (specs: SungNoteSpec[]): SungNote[] => specs.map((s, i) => sungNote(s, i));
