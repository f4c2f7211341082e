/**
 * The effects and master bus, rendered by node-web-audio-api: the dry mix plus reverb return and a tempo-synced
 * feedback delay, lo-fi wow (a modulated delay line), then high-pass (DC and rumble), glue compression and the
 * brightness low-pass.
 *
 * Progress is not reported from inside this render: node-web-audio-api 1.0.9 panics ("Panic in async function")
 * as soon as a second OfflineAudioContext.suspend() is used, so the caller reports progress per phase.
 */
import type { Score } from '../types.ts';
import { webAudio } from './globals.ts';
import { SAMPLE_RATE } from './constants.ts';
import type { MixBuses } from './mix.ts';
import { copyChannel } from './toneRender.ts';
import { REVERB_RATE } from './reverb.ts';

type Context = InstanceType<typeof webAudio.OfflineAudioContext>;

/** The lo-fi treatment's low-pass (above it the "tape" has nothing). */
const LOFI_CUTOFF = 7000;

function bufferSource(context: Context, channels: Float32Array[], rate = SAMPLE_RATE) {
  const buffer = context.createBuffer(channels.length, channels[0]!.length, rate);
  channels.forEach((data, index) => buffer.copyToChannel(data as Float32Array<ArrayBuffer>, index));
  const source = context.createBufferSource();
  source.buffer = buffer;
  source.start(0);
  return source;
}

function hasSignal(data: Float32Array): boolean {
  for (let i = 0; i < data.length; i += 32) if (data[i] !== 0) return true;
  return false;
}

export interface EffectsInput {
  buses: MixBuses;
  /** The reverb wet signal (at its own rate), or null. */
  reverb: [Float32Array, Float32Array] | null;
  /** Gain before the compressor, so it sees the same level whatever the arrangement. */
  inputGain: number;
}

export async function renderEffects(score: Score, input: EffectsInput): Promise<{ left: Float32Array; right: Float32Array }> {
  const frames = input.buses.left.length;
  const context = new webAudio.OfflineAudioContext(2, frames, SAMPLE_RATE);
  const { effects } = score.spec;

  const music = context.createGain();
  music.gain.value = input.inputGain;
  bufferSource(context, [input.buses.left, input.buses.right]).connect(music);

  if (input.reverb) {
    const wet = bufferSource(context, input.reverb, REVERB_RATE);
    // Removes the images above the reverb's 5.5 kHz Nyquist left by upsampling.
    const smooth = context.createBiquadFilter();
    smooth.type = 'lowpass';
    smooth.frequency.value = 4500;
    wet.connect(smooth).connect(music);
  }

  if (effects.delay > 0 && hasSignal(input.buses.delay)) {
    const beat = 60 / score.bpm;
    const delay = context.createDelay(2);
    // A dotted eighth, the classic tempo-synced echo; halved when the tempo is very slow.
    delay.delayTime.value = Math.min(1.9, beat * 0.75 > 0.6 ? beat * 0.375 : beat * 0.75);
    const feedback = context.createGain();
    feedback.gain.value = 0.38;
    const damping = context.createBiquadFilter();
    damping.type = 'lowpass';
    damping.frequency.value = 3000;
    const send = bufferSource(context, [input.buses.delay]);
    send.connect(delay);
    delay.connect(damping).connect(feedback).connect(delay);
    const wet = context.createGain();
    wet.gain.value = 0.7;
    damping.connect(wet).connect(music);
  }

  let chain: AudioNode = music as unknown as AudioNode;
  const connect = <T extends AudioNode>(node: T): T => {
    chain.connect(node);
    chain = node;
    return node;
  };

  if (effects.lofi) {
    // Wow: a slowly modulated delay bends the pitch by about ±0.25%, like a warped record.
    const wow = context.createDelay(0.05);
    wow.delayTime.value = 0.006;
    const lfo = context.createOscillator();
    lfo.frequency.value = 0.55;
    const depth = context.createGain();
    depth.gain.value = 0.0007;
    lfo.connect(depth).connect(wow.delayTime);
    lfo.start(0);
    connect(wow as unknown as AudioNode);
  }

  const highPass = connect(context.createBiquadFilter() as unknown as BiquadFilterNode);
  highPass.type = 'highpass';
  highPass.frequency.value = 25;
  highPass.Q.value = 0.7;

  const compressor = connect(context.createDynamicsCompressor() as unknown as DynamicsCompressorNode);
  // The bus arrives at about −18 LUFS; peaks well above that are tamed here so the final limiter, which must
  // add several dB to reach −14 LUFS, has less to do.
  compressor.threshold.value = -20;
  compressor.knee.value = 6;
  compressor.ratio.value = 3;
  compressor.attack.value = 0.004;
  compressor.release.value = 0.15;

  const cutoff = Math.min(effects.brightness, effects.lofi ? LOFI_CUTOFF : Infinity);
  if (cutoff < 19000) {
    const lowPass = connect(context.createBiquadFilter() as unknown as BiquadFilterNode);
    lowPass.type = 'lowpass';
    lowPass.frequency.value = Math.max(200, cutoff);
    lowPass.Q.value = 0.6;
  }
  chain.connect(context.destination as unknown as AudioNode);

  const rendered = await context.startRendering();
  return { left: copyChannel(rendered as unknown as AudioBuffer, 0), right: copyChannel(rendered as unknown as AudioBuffer, 1) };
}
