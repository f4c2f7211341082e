/** The pitched patch registry: every non-drum, non-texture name of PATCHES maps to a recipe here. */
import type { PitchedPatch } from './types.ts';
import { piano, rhodes, organ } from './keys.ts';
import { pluck, guitar, distGuitar, marimba, bells, fmBell } from './plucked.ts';
import { strings, brass, choir, flute, warmPad, synthPad } from './sustained.ts';
import { sawLead, squareLead } from './leads.ts';
import { subBass, fingerBass, acousticBass, acidBass, reeseBass, synthBass } from './basses.ts';

export const PITCHED_PATCHES: Readonly<Record<string, PitchedPatch>> = {
  piano, rhodes, organ,
  pluck, guitar, distGuitar, marimba, bells, fmBell,
  strings, brass, choir, flute, warmPad, synthPad,
  sawLead, squareLead,
  subBass, fingerBass, acousticBass, acidBass, reeseBass, synthBass,
};

export type { PitchedPatch, Voice, VoiceTools } from './types.ts';
