/**
 * The arp role (chord tones an octave above the voicing, in 16ths or 8ths) and the texture role (one long
 * note per section: the renderer plays a noise bed such as rain or vinyl and only needs its span and level).
 */
import { at } from '../checked.ts';
import { EPSILON, sectionVelocity, type ComposeContext, type GridNote } from './model.ts';

export function composeArp(ctx: ComposeContext, voicings: readonly number[][]): GridNote[] {
  // Sixteenths below 110 bpm, eighths above; a calm piece arpeggiates in eighths whatever its tempo.
  const step = ctx.bpm < 110 && ctx.spec.arousal >= -0.3 ? 0.25 : 0.5;
  const notes: GridNote[] = [];
  ctx.chords.forEach((slot, i) => {
    const section = at(ctx.sections, slot.section);
    if (!section.roles.has('arp') || slot.beat >= ctx.endingBeat - EPSILON) return;
    const tones = at(voicings, i).map((m) => m + 12);
    // Up through the chord and one note past the top, then back: a 2n-cycle that avoids repeating the ends.
    const order = [...tones, at(tones, 0) + 12, ...tones.slice(1).reverse()];
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy) * 0.7;
    let k = 0;
    for (let beat = slot.beat; beat < slot.beat + slot.beats - EPSILON; beat += step, k++) {
      notes.push({
        beat,
        beats: Math.min(step * 0.9, slot.beat + slot.beats - beat),
        midi: at(order, k % order.length),
        velocity: velocity * (Math.abs(beat % 1) < EPSILON ? 1 : 0.78),
      });
    }
  });
  return notes;
}

export function composeTexture(ctx: ComposeContext): GridNote[] {
  return ctx.sections
    .filter((section) => section.roles.has('texture'))
    .map((section) => ({
      beat: section.beat,
      beats: section.beats,
      midi: 60 + ctx.tonic,
      velocity: 0.3 + 0.4 * section.energy,
    }));
}
