/**
 * The tests' independent audio analysis toolkit. Every function takes a WAV path and measures it
 * with Debian tools (ffmpeg ebur128, sox stats, aubio, bpm-tools) or our own small FFT analysers
 * (fft.js) — never with the engine's own numbers. Each analyser is validated on synthetic sox-made
 * signals in test/analysis.test.ts.
 */
export {
  loudness,
  stats,
  parseEbur128Summary,
  parseSoxStats,
  type Loudness,
  type SampleStats,
} from './analysis/loudness.ts';
export {
  tempo,
  tempoMatches,
  tempoMatchesOne,
  tempoFromBeats,
  bpmToolsTempo,
  aubioBeats,
  median,
  TEMPO_FACTORS,
  type TempoEstimates,
} from './analysis/tempo.ts';
export {
  key,
  mirexKeyScore,
  chromaOf,
  rankKeys,
  keyName,
  pitchClassOf,
  PITCH_NAMES,
  type KeyEstimate,
  type KeyMode,
} from './analysis/key.ts';
export {
  onsets,
  onsetDensity,
  percussiveOnsetRate,
  percussiveOnsets,
  percussiveOnsetsOf,
  PERC_RISE_DB,
  PERC_LEVEL_DB,
  type OnsetOptions,
  type PercussiveOnsets,
} from './analysis/onsets.ts';
export { spectralCentroid, spectralCentroidOf } from './analysis/spectrum.ts';
export {
  readWav,
  readWavHeader,
  decodeWav,
  parseWavHeader,
  monoMix,
  frames,
  sampleRate,
  channels,
  WavFormatError,
  type WavAudio,
  type WavHeader,
} from './analysis/wav.ts';
