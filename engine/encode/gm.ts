/** General MIDI programs (0-based) for our patches, so exported MIDI opens with sensible sounds anywhere. */
export const GM_PROGRAM: Readonly<Record<string, number>> = {
  piano: 0,
  rhodes: 4,
  organ: 16,
  pluck: 45,
  guitar: 24,
  distGuitar: 30,
  marimba: 12,
  bells: 9,
  fmBell: 14,
  strings: 48,
  brass: 61,
  choir: 52,
  flute: 73,
  warmPad: 89,
  synthPad: 90,
  sawLead: 81,
  squareLead: 80,
  subBass: 38,
  tr808Bass: 38,
  fingerBass: 33,
  acousticBass: 32,
  acidBass: 38,
  reeseBass: 39,
  synthBass: 38,
  // Textures have no GM sound of their own; Seashore is the closest ambient effect.
  rain: 122,
  vinyl: 122,
  ocean: 122,
  wind: 122,
};

/** The GM percussion channel (channel 10, 0-based 9). */
export const DRUM_CHANNEL = 9;
