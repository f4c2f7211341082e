/**
 * The playground's audio options, the API's sample_rate, bit_depth and bitrate as three selects. Their values are
 * the API's own (empty = the default), so the form's body goes through the same validation as POST /v1/generate.
 */
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

export function audioOptions(values: AudioValues, errors: FieldErrors): Html {
  const open = AUDIO_FIELDS.some((field) => (values[field] ?? '') !== '' || errors[field]);
  return html`<details class="audio-options"${open ? html` open` : ''}>
    <summary>Audio options</summary>
    <div class="row">
      ${AUDIO_FIELDS.map(
        (field) => html`<div class="field">
        <label for="${field}">${CHOICES[field].label}</label>
        <select id="${field}" name="${field}"${describedBy(errors, field)}>
          ${CHOICES[field].options.map((choice) => html`<option value="${choice.value}"${(values[field] ?? '') === choice.value ? html` selected` : ''}>${choice.label}</option>`)}
        </select>
        ${fieldError(errors, field)}
      </div>`,
      )}
    </div>
  </details>`;
}
