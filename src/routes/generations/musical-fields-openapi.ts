/**
 * The OpenAPI description of the musical fields of POST /v1/generate, beside their reader (musical-fields.ts).
 */
import { EXCLUDABLE_ROLES, KEY_MODES, MAX_BPM, METERS, MIN_BPM } from '../../../engine/index.ts';

const WINS = 'Wins over the prompt; a prompt that says otherwise is reported in metadata.warnings.';

export function musicalFieldSchemas(): Record<string, object> {
  return {
    bpm: {
      type: ['number', 'null'],
      minimum: MIN_BPM,
      maximum: MAX_BPM,
      description: `Beats a minute of the pulse a listener taps: quarter notes in 3/4, 4/4, 5/4 and 7/8, dotted quarters in 6/8 and 12/8 (metadata.bpm counts the same way). ${WINS}`,
    },
    key: {
      type: ['string', 'null'],
      maxLength: 40,
      examples: ['F# minor', 'Bb major', 'D dorian'],
      description: `A tonic (A–G with # or b) and a mode: ${KEY_MODES.join(', ')}. ${WINS}`,
    },
    time_signature: {
      type: ['string', 'null'],
      enum: [...METERS, null],
      description: `Every style plays each of these with grooves of its own (drums, bass, comping, strums): 5/4 as 3+2, 7/8 as 2+2+3, 6/8 and 12/8 on a dotted-quarter pulse. Others are a 400. ${WINS}`,
    },
    instruments: {
      type: ['array', 'null'],
      maxItems: 8,
      items: { type: 'string', maxLength: 40 },
      examples: [['piano', 'cello']],
      description: `Instruments to include, by common name ("piano", "acoustic guitar", "strings"); one the engine does not play is a 400 unknown_instrument, one the arrangement cannot fit a warning. ${WINS}`,
    },
    exclude: {
      type: ['array', 'null'],
      maxItems: 8,
      items: { type: 'string', maxLength: 40 },
      examples: [['drums', 'vocals']],
      description: `Instruments or roles to leave out (roles: ${EXCLUDABLE_ROLES.join(', ')}). Excluding the vocals together with lyrics is a 400 conflicting_fields. ${WINS}`,
    },
    energy: {
      type: ['number', 'null'],
      minimum: 0,
      maximum: 1,
      description: `0 calm … 1 intense: sets the arousal mood words would set (tempo when no bpm is given, density, dynamics). ${WINS}`,
    },
  };
}
