/**
 * The common patch shape: one Tone Synth or MonoSynth into the output (a Synth optionally through a low-pass),
 * optionally with a vibrato LFO on its detune and a noise-burst transient. Patches of this shape are written as data.
 */
import type { ToneLib } from '../globals.ts';
import { instrumentInstance, noiseBurst, type PitchedPatch, type PatchTools } from './types.ts';

type SynthOptions = NonNullable<ConstructorParameters<ToneLib['Synth']>[0]>;
type MonoSynthOptions = NonNullable<ConstructorParameters<ToneLib['MonoSynth']>[0]>;

interface PatchShape extends Omit<PitchedPatch, 'build'> {
  /** Pitch vibrato of ±cents at frequency Hz, started at `start` seconds (default 0). */
  vibrato?: { frequency: number; cents: number; start?: number };
  /** A noise burst started with each note (hammer, pick, thumb, key click). */
  transient?: Parameters<typeof noiseBurst>[1];
}

function patchFrom(
  shape: PatchShape,
  build: (tools: PatchTools) => {
    detune: Parameters<InstanceType<ToneLib['LFO']>['connect']>[0];
    instrument: Parameters<typeof instrumentInstance>[0];
  },
): PitchedPatch {
  const { vibrato, transient, ...metadata } = shape;
  return {
    ...metadata,
    build(tools) {
      const { detune, instrument } = build(tools);
      if (vibrato) {
        const lfo = new tools.Tone.LFO({
          frequency: vibrato.frequency,
          min: -vibrato.cents,
          max: vibrato.cents,
        }).connect(detune);
        lfo.start(vibrato.start ?? 0);
      }
      return instrumentInstance(instrument, transient ? [noiseBurst(tools, transient)] : []);
    },
  };
}

/** A MonoSynth (oscillator, filter and filter envelope) straight into the output. */
export function monoSynthPatch(shape: PatchShape & { synth: MonoSynthOptions }): PitchedPatch {
  const { synth: options, ...rest } = shape;
  return patchFrom(rest, (tools) => {
    const synth = new tools.Tone.MonoSynth(structuredClone(options)).connect(tools.output);
    return { detune: synth.detune, instrument: synth };
  });
}

/** A Synth into the output, or through a fixed low-pass filter (created first) when `lowpass` is given. */
export function synthPatch(
  shape: PatchShape & {
    synth: SynthOptions;
    lowpass?: { frequency: number; Q: number; rolloff: -12 | -24 | -48 | -96 };
  },
): PitchedPatch {
  const { synth: options, lowpass, ...rest } = shape;
  return patchFrom(rest, (tools) => {
    const { Tone } = tools;
    const destination = lowpass ? new Tone.Filter({ type: 'lowpass', ...lowpass }).connect(tools.output) : tools.output;
    const synth = new Tone.Synth(structuredClone(options)).connect(destination);
    return { detune: synth.detune, instrument: synth };
  });
}
