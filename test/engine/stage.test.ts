/**
 * Stage placement, heard in rendered audio: the same phrase played by a violin part and by a cello part lands
 * left and right of centre as an orchestra is seated. Measured as channel energy of the decoded WAV.
 */
import test from 'ava';
import type { Note, Part, Score, SongSpec } from '../../engine/types.ts';
import { renderScore } from '../../engine/render/index.ts';
import { encodeWav } from '../../engine/encode/index.ts';
import { decodeWav } from '../helpers/analysis.ts';

const SECONDS = 3;

function orchestralScore(instrument: string): Score {
  const spec: SongSpec = {
    prompt: 'test',
    duration: SECONDS,
    seed: 5,
    genre: 'orchestral',
    blend: null,
    bpm: 90,
    meter: { beatsPerBar: 4, beatUnit: 4 },
    swing: 0,
    key: { tonic: 'C', mode: 'major' },
    valence: 0,
    arousal: 0,
    density: 0.5,
    form: 'orchestral',
    instruments: [],
    excluded: [],
    effects: { reverb: 0.5, reverbDecay: 2, delay: 0, lofi: false, rain: false, brightness: 20000 },
    vocals: { enabled: false, gender: 'female' },
    lyrics: null,
    title: 'Test',
    trace: [],
    warnings: [],
  };
  const notes: Note[] = [55, 59, 62, 60].map((midi, i) => ({
    time: i * 0.6,
    duration: 0.55,
    midi,
    velocity: 0.7,
    beat: i,
  }));
  const part: Part = { role: 'chords', instrument, notes, gainDb: 0, pan: 0 };
  return {
    spec,
    bpm: 90,
    beatsPerBar: 4,
    duration: SECONDS,
    sections: [],
    chords: [],
    parts: [part],
    scale: [0, 2, 4, 5, 7, 9, 11],
    vocal: null,
  };
}

/** Left minus right energy over their sum: −1 all left … 1 all right. */
async function balanceOf(instrument: string): Promise<number> {
  const audio = await renderScore(orchestralScore(instrument));
  const [left, right] = decodeWav(encodeWav(audio.left, audio.right, audio.sampleRate)).channelData;
  let l = 0,
    r = 0;
  for (let i = 0; i < left!.length; i++) {
    l += left![i]! ** 2;
    r += right![i]! ** 2;
  }
  return (r - l) / (r + l);
}

test('violins sit left of centre and cellos right of it', async (t) => {
  const violin = await balanceOf('violin');
  const cello = await balanceOf('cello');
  t.true(violin < -0.2, `violin balance ${violin.toFixed(2)}`);
  t.true(cello > 0.2, `cello balance ${cello.toFixed(2)}`);
});
