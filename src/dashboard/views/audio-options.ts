/**
 * The playground's audio options, the API's sample_rate, bit_depth and bitrate as three selects. Their values are
 * the API's own (empty = the default), so the form's body goes through the same validation as POST /v1/generate.
 */
import { QUALITY, type PlanLimits, type Quality } from '../../domain/plans.ts';
import { LIMITS } from '../../requests/generate-request.ts';
import { html, type Html } from '../html.ts';
import { describedBy, fieldError, type FieldErrors } from './forms.ts';

export const AUDIO_FIELDS = ['sample_rate', 'bit_depth', 'bitrate'] as const;
export type AudioValues = Partial<Record<(typeof AUDIO_FIELDS)[number], string>>;

interface Choice {
  value: string;
  label: string;
}

const CHOICES: Record<(typeof AUDIO_FIELDS)[number], { label: string; options: Choice[] }> = {
  sample_rate: {
    label: 'Sample rate (WAV, FLAC)',
    options: LIMITS.sampleRates.map((rate) => ({
      value: rate === 44100 ? '' : String(rate),
      label: `${rate / 1000} kHz`,
    })),
  },
  bit_depth: {
    label: 'Bit depth (WAV, FLAC)',
    options: LIMITS.bitDepths.map((bits) => ({ value: bits === 16 ? '' : String(bits), label: `${bits}-bit` })),
  },
  bitrate: {
    label: 'MP3 bitrate',
    options: [
      { value: '', label: 'VBR, about 190 kbps' },
      ...LIMITS.mp3Bitrates.map((kbps) => ({ value: String(kbps), label: `${kbps} kbps constant` })),
    ],
  },
};

/** Whether a choice is above what the plan's quality allows, and which plans include it. */
export interface AudioLimits {
  maxSampleRate: number;
  maxBitDepth: number;
  maxMp3Bitrate: number;
  includedIn(includes: (plan: PlanLimits) => boolean): string;
}

function lockedBy(field: (typeof AUDIO_FIELDS)[number], value: number, limits: AudioLimits): string | undefined {
  const [max, of] =
    field === 'sample_rate'
      ? [limits.maxSampleRate, (q: (typeof QUALITY)[Quality]) => q.maxSampleRate]
      : field === 'bit_depth'
        ? [limits.maxBitDepth, (q: (typeof QUALITY)[Quality]) => q.maxBitDepth]
        : [limits.maxMp3Bitrate, (q: (typeof QUALITY)[Quality]) => q.maxMp3Bitrate];
  return value > max ? limits.includedIn((plan) => of(QUALITY[plan.quality]) >= value) : undefined;
}

export function audioOptions(values: AudioValues, errors: FieldErrors, limits?: AudioLimits): Html {
  const open = AUDIO_FIELDS.some((field) => (values[field] ?? '') !== '' || errors[field]);
  return html`<details class="audio-options"${open ? html` open` : ''}>
    <summary>Audio options</summary>
    <div class="row">
      ${AUDIO_FIELDS.map(
        (field) => html`<div class="field">
        <label for="${field}">${CHOICES[field].label}</label>
        <select id="${field}" name="${field}"${describedBy(errors, field)}>
          ${CHOICES[field].options.map((choice) => {
            // A choice above the plan's quality is shown with the plans that include it, and cannot be picked.
            const locked = limits && choice.value !== '' ? lockedBy(field, Number(choice.value), limits) : undefined;
            return html`<option value="${choice.value}"${(values[field] ?? '') === choice.value && !locked ? html` selected` : ''}${locked ? html` disabled` : ''}>${choice.label}${locked ? ` (${locked} only)` : ''}</option>`;
          })}
        </select>
        ${fieldError(errors, field)}
      </div>`,
      )}
    </div>
  </details>`;
}
