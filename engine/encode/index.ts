/** Stage 4 of the engine: audio -> WAV bytes, score -> MIDI bytes. */
export { encodeWav } from './wav.ts';
export { encodeMidi } from './midi.ts';
