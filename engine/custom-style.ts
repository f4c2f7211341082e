/**
 * Custom styles: a built-in preset with some of its choices changed (the API's POST /v1/styles, Enterprise's
 * "custom models"). The result is an ordinary Preset, checked by the same validatePreset as presets/*.json, plus
 * the two preferences a preset cannot hold: a tonic and a meter. A render is given the finished CustomStyle
 * (GenerationRequest.customStyle), so it needs no lookup and plays the style as it was when the task was made.
 */
import { meterName, parseMeter, unitBpm } from './compose/meter.ts';
import { InvalidPresetError, RequestError } from './errors.ts';
import { instrumentWord, parseKeyName } from './interpret/fields.ts';
import { getLexicon } from './lexicon/index.ts';
import { getPreset, presetNames, validatePreset } from './presets.ts';
import {
  DRUM_KITS,
  MODES,
  PATCHES,
  ROLES,
  type CustomStyle,
  type Mode,
  type Patch,
  type Preset,
  type Role,
} from './types.ts';

/** What a custom style changes in its base; every field optional. Tempos count the pulse, as the API's `bpm`. */
export interface StyleChanges {
  description?: string | undefined;
  bpm?: { min: number; max: number } | undefined;
  /** A key the style prefers ("F# minor"): its tonic and its mode, unless the prompt or the request names one. */
  key?: string | undefined;
  /** The modes the style chooses among by mood (`key` gives one). */
  modes?: readonly string[] | undefined;
  /** The meter the style plays in unless the prompt or the request names one (a meter of METERS). */
  time_signature?: string | undefined;
  /** An instrument (a common name or a patch) per role; null leaves the role out. */
  instruments?: Partial<Record<string, string | null>> | undefined;
  /** A built-in style whose drum groove and bass playing this one takes (of the same meter). */
  groove?: string | undefined;
  swing?: number | undefined;
  reverb?: number | undefined;
  /** Whether the style sings when the prompt does not say (a prompt asking for a song, or lyrics, still sing). */
  vocals?: boolean | undefined;
}

/** A change the style cannot have: which field, and why, in a sentence for the caller. */
export class InvalidStyleError extends RequestError {
  override name = 'InvalidStyleError' as const;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const KITS: readonly Patch[] = DRUM_KITS;
const TEXTURES: readonly Patch[] = ['rain', 'vinyl', 'ocean', 'wind'];
/** The roles a style may set: the voice is the singer's, chosen per track. */
export const STYLE_ROLES = ROLES.filter((role) => role !== 'vocal');

/** The patch an instrument name plays: a patch's own name, or a word of the instrument lexicon ("acoustic guitar"). */
function patchOf(name: string): Patch | undefined {
  if ((PATCHES as readonly string[]).includes(name)) return name as Patch;
  return instrumentWord(
    getLexicon(() => presetNames().map(getPreset)),
    name,
  )?.patch;
}

function instrumentFor(role: Role, name: string): Patch {
  const patch = patchOf(name);
  const field = `instruments.${role}`;
  if (patch === undefined) throw new InvalidStyleError(field, `The engine plays no instrument called "${name}".`);
  if ((role === 'drums') !== KITS.includes(patch))
    throw new InvalidStyleError(
      field,
      role === 'drums'
        ? `"${name}" is not a drum kit: the drums role takes one of ${KITS.join(', ')}.`
        : `"${name}" is a drum kit: only the drums role plays one.`,
    );
  if ((role === 'texture') !== TEXTURES.includes(patch))
    throw new InvalidStyleError(
      field,
      role === 'texture'
        ? `"${name}" is not a texture: the texture role takes one of ${TEXTURES.join(', ')}.`
        : `"${name}" is a texture: only the texture role plays one.`,
    );
  return patch;
}

const mutable = <T>(value: T): T => structuredClone(value) as T;

/** The style `name` made from the built-in `base` with `changes`, checked as a preset file is. */
export function makeCustomStyle(name: string, base: string, changes: StyleChanges): CustomStyle {
  const basePreset = getPreset(base);
  const preset: Preset = mutable(basePreset);
  const style: CustomStyle = { name, base, preset };
  if (changes.description !== undefined) preset.description = changes.description;
  if (changes.groove !== undefined) {
    if (!presetNames().includes(changes.groove))
      throw new InvalidStyleError(
        'groove',
        `"${changes.groove}" is not a built-in style: take the groove of one of ${presetNames().join(', ')}.`,
      );
    const groove = getPreset(changes.groove);
    if (meterName(groove.meter) !== meterName(basePreset.meter))
      throw new InvalidStyleError(
        'groove',
        `${groove.name}'s groove is in ${meterName(groove.meter)} and ${base} is in ${meterName(basePreset.meter)}: take a groove of a style in ${meterName(basePreset.meter)}, or change "time_signature" instead.`,
      );
    preset.drums = mutable(groove.drums);
    preset.bass = groove.bass;
    if (groove.drums === null) delete preset.instruments.drums;
    else preset.instruments.drums ??= mutable(groove.instruments.drums);
  }
  for (const [role, name] of Object.entries(changes.instruments ?? {})) {
    if (!(STYLE_ROLES as readonly string[]).includes(role))
      throw new InvalidStyleError(`instruments.${role}`, `"${role}" is not a role: use ${STYLE_ROLES.join(', ')}.`);
    if (name === null || name === undefined) {
      delete preset.instruments[role as Role];
      if (role === 'drums') preset.drums = null;
    } else {
      preset.instruments[role as Role] = instrumentFor(role as Role, name);
    }
  }
  if (preset.instruments.drums !== undefined && preset.drums === null)
    throw new InvalidStyleError(
      'instruments.drums',
      `${base} has no drum groove: give "groove", a style whose drums to play.`,
    );
  if (changes.bpm !== undefined) {
    // The style's tempos count its meter's beat unit (eighths in 6/8); the API's count the pulse.
    const min = Math.round(unitBpm(changes.bpm.min, basePreset.meter));
    const max = Math.round(unitBpm(changes.bpm.max, basePreset.meter));
    const kept = basePreset.bpm.default >= min && basePreset.bpm.default <= max;
    preset.bpm = { min, max, default: kept ? basePreset.bpm.default : Math.round((min + max) / 2) };
  }
  if (changes.key !== undefined) {
    const key = parseKeyName(changes.key);
    if (key === null)
      throw new InvalidStyleError('key', `"${changes.key}" is not a key: write a tonic and a mode, "F# minor".`);
    style.tonic = key.tonic;
    style.mode = key.mode;
    preset.modes = [key.mode];
  }
  if (changes.modes !== undefined) {
    const modes = changes.modes.map((word, i): Mode => {
      const mode = parseKeyName(`C ${word}`)?.mode;
      if (mode === undefined || !(MODES as readonly string[]).includes(mode))
        throw new InvalidStyleError(`modes[${i}]`, `"${word}" is not a mode.`);
      return mode;
    });
    if (style.mode !== undefined && !modes.includes(style.mode))
      throw new InvalidStyleError('modes', `"modes" leaves out the mode of "key" (${changes.key}).`);
    preset.modes = [...new Set(modes)];
  }
  if (changes.time_signature !== undefined) {
    const meter = parseMeter(changes.time_signature);
    if (meter === null) throw new InvalidStyleError('time_signature', `"${changes.time_signature}" is not a meter.`);
    if (meterName(meter) !== meterName(basePreset.meter)) style.meter = meter;
  }
  if (changes.swing !== undefined) preset.swing = changes.swing;
  if (changes.reverb !== undefined) preset.effects.reverb = changes.reverb;
  if (changes.vocals !== undefined) preset.vocal = changes.vocals;
  try {
    validatePreset(preset, `the style ${name}`);
  } catch (error) {
    if (error instanceof InvalidPresetError)
      throw new InvalidStyleError(name, `The style is not playable: ${error.problem}.`);
    throw error;
  }
  return style;
}
