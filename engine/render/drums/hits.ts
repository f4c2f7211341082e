/**
 * Building blocks for one drum hit, each played once per velocity layer in the drum prerender context.
 * Noise always comes from the seeded buffer (never Tone.Noise, which uses Math.random).
 */
import type { PatchTools } from '../patches/types.ts';

export type HitTools = PatchTools;
export type Hit = (tools: HitTools, time: number, velocity: number) => void;

/** A pitched membrane whose pitch falls (kick, toms, 808, timpani). */
export function membrane(options: {
  note: number;
  octaves: number;
  pitchDecay: number;
  decay: number;
  level?: number;
  wave?: 'sine' | 'triangle' | 'square';
}): Hit {
  return (tools, time, velocity) => {
    const synth = new tools.Tone.MembraneSynth({
      pitchDecay: options.pitchDecay,
      octaves: options.octaves,
      oscillator: { type: options.wave ?? 'sine' },
      envelope: { attack: 0.001, decay: options.decay, sustain: 0, release: 0.05 },
      volume: 20 * Math.log10(options.level ?? 1),
    }).connect(tools.output);
    synth.triggerAttackRelease(options.note, options.decay, time, velocity);
  };
}

/** Filtered noise with an exponential decay (snare wires, hats, shaker, brushes). */
export function noise(options: {
  type: BiquadFilterType;
  frequency: number;
  q?: number;
  decay: number;
  attack?: number;
  level?: number;
  offset?: number;
}): Hit {
  return (tools, time, velocity) => {
    const { Tone } = tools;
    const filter = new Tone.Filter({ type: options.type, frequency: options.frequency, Q: options.q ?? 0.7 }).connect(
      tools.output,
    );
    const gain = new Tone.Gain(0).connect(filter);
    const player = new Tone.Player(tools.noise).connect(gain);
    const attack = options.attack ?? 0.001;
    const peak = velocity * (options.level ?? 1);
    player.start(time, options.offset ?? 0, attack + options.decay * 6);
    gain.gain.setValueAtTime(0, time);
    gain.gain.linearRampToValueAtTime(peak, time + attack);
    gain.gain.exponentialApproachValueAtTime(0, time + attack, options.decay);
  };
}

/** Hand clap: three quick noise bursts then a short tail, band-passed around 1.1 kHz. */
export function clap(options: { frequency: number; decay: number; level?: number }): Hit {
  return (tools, time, velocity) => {
    const { Tone } = tools;
    const filter = new Tone.Filter({ type: 'bandpass', frequency: options.frequency, Q: 1.2 }).connect(tools.output);
    const gain = new Tone.Gain(0).connect(filter);
    const player = new Tone.Player(tools.noise).connect(gain);
    const peak = velocity * (options.level ?? 1);
    player.start(time, 1.3, 1);
    gain.gain.setValueAtTime(0, time);
    for (const offset of [0, 0.011, 0.023]) {
      gain.gain.setValueAtTime(peak, time + offset);
      gain.gain.exponentialApproachValueAtTime(peak * 0.1, time + offset + 0.0005, 0.003);
    }
    gain.gain.setValueAtTime(peak * 0.8, time + 0.034);
    gain.gain.exponentialApproachValueAtTime(0, time + 0.035, options.decay);
  };
}

/**
 * Cymbal metal the TR-808 way: six square oscillators at inharmonic ratios through a high-pass, with a decaying
 * gain. Built from native nodes because Tone's MetalSynth cost ~40 ms of setup per hit.
 */
const METAL_RATIOS = [1, 1.4826, 1.8003, 2.5459, 2.6303, 3.8965];

export function metal(options: { frequency: number; decay: number; resonance?: number; level?: number }): Hit {
  return (tools, time, velocity) => {
    const context = tools.Tone.getContext().rawContext as unknown as BaseAudioContext;
    const gain = context.createGain();
    gain.gain.setValueAtTime(0, time);
    gain.gain.linearRampToValueAtTime(velocity * (options.level ?? 1) * 0.3, time + 0.001);
    gain.gain.setTargetAtTime(0, time + 0.001, options.decay / 4);
    const highPass = context.createBiquadFilter();
    highPass.type = 'highpass';
    highPass.frequency.value = options.resonance ?? 4000;
    highPass.Q.value = 1.2;
    highPass.connect(gain);
    gain.connect(tools.output.input as unknown as AudioNode);
    for (const ratio of METAL_RATIOS) {
      const oscillator = context.createOscillator();
      oscillator.type = 'square';
      oscillator.frequency.value = options.frequency * ratio;
      oscillator.connect(highPass);
      oscillator.start(time);
      oscillator.stop(time + options.decay * 1.5);
    }
  };
}

/** A short pitched click (rim shot, chip blips). */
export function click(options: {
  frequency: number;
  decay: number;
  wave?: 'square' | 'triangle' | 'sine';
  level?: number;
}): Hit {
  return (tools, time, velocity) => {
    const synth = new tools.Tone.Synth({
      oscillator: { type: options.wave ?? 'triangle' },
      envelope: { attack: 0.0005, decay: options.decay, sustain: 0, release: 0.02 },
      volume: 20 * Math.log10(options.level ?? 1),
    }).connect(tools.output);
    synth.triggerAttackRelease(options.frequency, options.decay, time, velocity);
  };
}

/** Several hits layered into one (snare body + wires, crash metal + noise). */
export function layer(...hits: Hit[]): Hit {
  return (tools, time, velocity) => {
    for (const hit of hits) hit(tools, time, velocity);
  };
}
