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
  tone = import('tone');
  return tone;
}

export { webAudio };
