/**
 * The synthesized patch registry: the electronic sounds (plucks, bells, pads, leads, synth basses) are Tone.js
 * recipes here; acoustic instruments are sampled (../sampled/catalogue.ts).
 */
import type { PitchedPatch } from './types.ts';
import { pluck, bells, fmBell } from './plucked.ts';
import { warmPad, synthPad } from './sustained.ts';
import { sawLead, squareLead } from './leads.ts';
import { subBass, tr808Bass, acidBass, reeseBass, synthBass } from './basses.ts';

export const PITCHED_PATCHES: Readonly<Record<string, PitchedPatch>> = {
  pluck,
  bells,
  fmBell,
  warmPad,
  synthPad,
  sawLead,
  squareLead,
  subBass,
  tr808Bass,
  acidBass,
  reeseBass,
  synthBass,
};

export type { PitchedPatch, PatchInstance, PatchTools } from './types.ts';
