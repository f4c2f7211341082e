/**
 * Standard MIDI File export: tempo and time signature, one track per part named after its role and patch,
 * a GM program per patch, drums on channel 10 with the General MIDI percussion keys they were composed with.
 */
import tonejsMidi from '@tonejs/midi';
import type { Score } from '../types.ts';
import { DRUM_CHANNEL, GM_PROGRAM } from './gm.ts';

const { Midi } = tonejsMidi;

export function encodeMidi(score: Score): Uint8Array {
  const midi = new Midi();
  midi.name = score.spec.title;
  midi.header.setTempo(score.bpm);
  midi.header.timeSignatures.push({
    ticks: 0,
    timeSignature: [score.spec.meter.beatsPerBar, score.spec.meter.beatUnit],
  });
  midi.header.update();
  let nextChannel = 0;
  for (const part of score.parts) {
    const track = midi.addTrack();
    track.name = `${part.role}: ${part.instrument}`;
    if (part.role === 'drums') {
      track.channel = DRUM_CHANNEL;
    } else {
      // Channels 0–15 without the drum channel; parts beyond 15 share channels (rare).
      track.channel = nextChannel % 15 >= DRUM_CHANNEL ? (nextChannel % 15) + 1 : nextChannel % 15;
      nextChannel++;
      track.instrument.number = GM_PROGRAM[part.instrument] ?? 0;
    }
    for (const note of part.notes) {
      track.addNote({
        midi: Math.max(0, Math.min(127, Math.round(note.midi))),
        time: Math.max(0, note.time),
        duration: Math.max(0.01, note.duration),
        velocity: Math.max(0.01, Math.min(1, note.velocity)),
      });
    }
  }
  return midi.toArray();
}
