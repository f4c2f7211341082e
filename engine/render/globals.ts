/**
 * Web Audio in Node: node-web-audio-api provides the classes, Tone.js expects them on a browser-like global.
 * Done once per thread; the Tone module is loaded only after the globals exist.
 */
import * as webAudio from 'node-web-audio-api';

export type ToneLib = typeof import('tone');

let tone: Promise<ToneLib> | null = null;

/** Installs the node-web-audio-api globals Tone needs (never overriding existing ones) and loads Tone. */
export function setupWebAudioGlobals(): Promise<ToneLib> {
  if (tone) return tone;
  const scope = globalThis as Record<string, unknown>;
  for (const [name, value] of Object.entries(webAudio)) {
    if (!(name in scope)) scope[name] = value;
  }
  if (!('window' in scope)) scope.window = globalThis;
  tone = import('tone').then((Tone) => {
    buildFatOscillatorsWithOneVoice(Tone);
    return Tone;
  });
  return tone;
}

/**
 * A 'fat…' oscillator type makes Tone's OmniOscillator build a FatOscillator from its defaults (three voices, at
 * 0°, 120° and 240°), then set the options it was given one by one: the type, a partialCount of 0 (which turns
 * 'square24' into a full-band 'square' for a moment), then the count, which replaces every voice. The
 * short-lived voices at 120° and 240° needed four full-band periodic waves, about 0.17 s of CPU each in
 * node-web-audio-api, for oscillators that never sound. Built with one voice (at 0°, where Tone uses the native
 * oscillator types and no wave), they need none. The OmniOscillator's own default count stays 3, so a patch
 * that names no count sounds as before, and nothing heard changes (the golden hashes hold).
 */
function buildFatOscillatorsWithOneVoice(Tone: ToneLib): void {
  const fatDefaults = Tone.FatOscillator.getDefaults;
  const omniDefaults = Tone.OmniOscillator.getDefaults;
  const count = fatDefaults().count;
  Tone.FatOscillator.getDefaults = () => ({ ...fatDefaults(), count: 1 });
  Tone.OmniOscillator.getDefaults = () => ({ ...omniDefaults(), count }) as ReturnType<typeof omniDefaults>;
}

export { webAudio };
