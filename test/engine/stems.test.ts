/**
 * Stems (GenerationRequest.stems): one WAV per role, frame for frame as long as the mix, adding up to it (the
 * residual measured by sox on the files), silent where their part rests, and the mix unchanged by asking.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { compose, interpret, type GenerationRequest, type Role } from '../../engine/index.ts';
import { decodeWav, parseWavHeader } from '../helpers/analysis.ts';
import { createTrackRenderer, sha256, type RenderedFile, type TrackRenderer } from '../helpers/analysis/renders.ts';
import { residualDb } from '../helpers/analysis/sum.ts';

const request = (style: string, prompt: string, extra: Partial<GenerationRequest> = {}): GenerationRequest => ({
  prompt,
  duration: 14,
  style,
  instrumental: true,
  seed: 5,
  stems: true,
  ...extra,
});

/** Several styles: drums and bass through their compressors, keys split from pads, lo-fi wow, rooms and halls, a sampler's treatment, a singer, a loop. */
const TRACKS: Record<string, GenerationRequest> = {
  lofi: request('lofi', 'rainy night study beats'),
  rock: request('rock', 'driving rock with guitars'),
  orchestral: request('orchestral', 'heroic orchestral theme'),
  house: request('house', 'deep house groove'),
  jazz: request('jazz', 'late night jazz trio'),
  // Its loop, stabs, kit and bass replay treated samples (render/tone.ts).
  'boom bap': request('hiphop', 'boom bap hip hop beat'),
  'sung folk': request('folk', 'a happy folk song about summer with a female singer', {
    instrumental: false,
    duration: 16,
    seed: 9,
  }),
  'lofi loop': request('lofi', 'rainy night study beats', { loop: true }),
};

/** Within −40 dB, the bar; the 16-bit rounding of each file alone leaves about −77 dB. */
const MAX_RESIDUAL_DB = -40;

let renderer: TrackRenderer;
test.before(async () => {
  renderer = await createTrackRenderer({ prefix: 'tunesmith-stems-' });
});
test.after.always(async () => {
  await renderer?.close();
});

/** The track and its stems written beside its WAV. */
async function rendered(name: string): Promise<{ file: RenderedFile; stems: { role: Role; path: string }[] }> {
  const file = await renderer.render(name, TRACKS[name]!);
  const stems = await Promise.all(
    (file.track.stems ?? []).map(async (stem) => {
      const path = join(dirname(file.path), `${name.replace(/\W+/g, '_')}-${stem.role}.wav`);
      await writeFile(path, stem.wav);
      return { role: stem.role, path };
    }),
  );
  return { file, stems };
}

for (const name of Object.keys(TRACKS)) {
  test(`${name}: the stems add up to the mix within ${MAX_RESIDUAL_DB} dB`, async (t) => {
    const { file, stems } = await rendered(name);
    t.true(stems.length >= 3, `only ${stems.length} stems`);
    const residual = await residualDb(
      file.path,
      stems.map((stem) => stem.path),
    );
    t.log(`${name}: ${stems.map((stem) => stem.role).join(', ')}: residual ${residual.toFixed(1)} dB`);
    t.true(residual <= MAX_RESIDUAL_DB, `residual ${residual.toFixed(1)} dB`);
  });
}

test("every stem has the mix's frames, rate and channels", async (t) => {
  const { file } = await rendered('rock');
  const mix = parseWavHeader(file.track.wav);
  for (const stem of file.track.stems!) {
    const header = parseWavHeader(stem.wav);
    t.deepEqual(
      [header.frames, header.sampleRate, header.channels],
      [mix.frames, mix.sampleRate, mix.channels],
      stem.role,
    );
  }
});

test('a sung track has a vocal stem', async (t) => {
  const { file } = await rendered('sung folk');
  t.true(file.track.stems!.some((stem) => stem.role === 'vocal'));
});

test('asking for stems leaves the mix byte-identical', async (t) => {
  const [a, b] = await Promise.all([
    renderer.render('lofi', TRACKS.lofi!),
    renderer.render('lofi-plain', { ...TRACKS.lofi!, stems: false }),
  ]);
  t.is(b.track.stems, undefined);
  t.is(a.sha256, sha256(b.track.wav));
});

/** After a part's last sound, its release and the reverb and delay die away within this (beyond the reverb's decay). */
const RING_SECONDS = 2.5;
/** A note's stem may start sounding this early (a breath before a sung line, humanizing). */
const LEAD_IN_SECONDS = 0.6;
/** Silent: no sample above −60 dBFS (a 16-bit file's quietest sounds are near −90). */
const SILENT_PEAK = 10 ** (-60 / 20);

/** Stretches (seconds) where a role has not sounded for a while and will not for a while. */
function rests(
  notes: readonly { time: number; duration: number }[],
  duration: number,
  ring: number,
): [number, number][] {
  const sorted = [...notes].sort((a, b) => a.time - b.time);
  const out: [number, number][] = [];
  let quietFrom = 0;
  for (const note of sorted) {
    const until = note.time - LEAD_IN_SECONDS;
    if (until - quietFrom >= 0.5) out.push([quietFrom, until]);
    quietFrom = Math.max(quietFrom, note.time + note.duration + ring);
  }
  if (duration - quietFrom >= 0.5) out.push([quietFrom, duration]);
  return out;
}

test('each stem is silent where its part rests', async (t) => {
  let checked = 0;
  for (const name of ['sung folk', 'orchestral', 'house']) {
    const { file } = await rendered(name);
    const spec = interpret(TRACKS[name]!);
    const score = compose(spec);
    const ring = spec.effects.reverbDecay + RING_SECONDS;
    for (const stem of file.track.stems!) {
      if (stem.role === 'texture') continue; // beds are not notes: they play all along or section by section
      const notes =
        stem.role === 'vocal'
          ? [...score.vocal!.notes, ...score.vocal!.backing]
          : score.parts.filter((part) => part.role === stem.role).flatMap((part) => part.notes);
      const audio = decodeWav(stem.wav);
      for (const [from, to] of rests(notes, score.duration, ring)) {
        let peak = 0;
        for (const channel of audio.channelData)
          for (
            let i = Math.round(from * audio.sampleRate);
            i < Math.min(audio.frames, Math.round(to * audio.sampleRate));
            i++
          )
            peak = Math.max(peak, Math.abs(channel[i]!));
        t.true(
          peak <= SILENT_PEAK,
          `${name} ${stem.role}: ${(20 * Math.log10(peak)).toFixed(1)} dBFS from ${from.toFixed(2)} s to ${to.toFixed(2)} s`,
        );
        checked++;
      }
    }
  }
  t.log(`${checked} rests checked`);
  t.true(checked >= 3, 'too few rests to check: the test would prove nothing');
});
