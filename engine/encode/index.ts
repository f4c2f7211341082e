/** Stage 4 of the engine: audio -> WAV (and FLAC, MP3, Opus) bytes, score -> MIDI bytes, sung lines -> LRC and WebVTT. */
export { encodeWav } from './wav.ts';
export { encodeMidi } from './midi.ts';
export { encodeOutputs, type EncodedOutputs } from './outputs.ts';
