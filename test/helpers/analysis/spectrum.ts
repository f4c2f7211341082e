/** Brightness: the mean spectral centroid of a WAV file. */
import { forEachSpectrum } from './stft.ts';
import { monoMix, readWav } from './wav.ts';

const FRAME = 2048;
const HOP = 1024;

/**
 * Mean spectral centroid in Hz: each frame's magnitude-weighted mean frequency, averaged with the
 * frame's total magnitude as weight so that silence and quiet tails do not pull the mean around.
 * Returns 0 for digital silence.
 */
export function spectralCentroidOf(signal: Float32Array, sampleRate: number): number {
  const binHz = sampleRate / FRAME;
  let weighted = 0;
  let weights = 0;
  forEachSpectrum(signal, { size: FRAME, hop: HOP }, (mag) => {
    let sum = 0;
    let moment = 0;
    for (let k = 1; k < mag.length; k++) {
      sum += mag[k]!;
      moment += mag[k]! * k * binHz;
    }
    if (sum === 0) return;
    weighted += moment; // = (moment / sum) * sum
    weights += sum;
  });
  return weights === 0 ? 0 : weighted / weights;
}

export async function spectralCentroid(path: string): Promise<number> {
  const audio = await readWav(path);
  return spectralCentroidOf(monoMix(audio), audio.sampleRate);
}
