/**
 * The body of POST /v1/styles (the dashboard's form uses the same schema): a new style's name, the style it starts
 * from and what it changes. The fields' own checks are here; whether the changes make a playable style is the
 * engine's (makeCustomStyle, through src/domain/custom-styles.ts).
 */
import { z } from 'zod';
import { KEY_MODES, METERS, MAX_BPM, MIN_BPM, STYLE_ROLES, type StyleChanges } from '../../engine/index.ts';
import type { NewStyle } from '../domain/custom-styles.ts';
import { boolean, number, text } from '../http/fields.ts';
import { parseWith, refuse, strictBody } from '../http/schema.ts';

export const STYLE_LIMITS = { nameChars: 40, descriptionChars: 200 } as const;
const NAME = /^[a-z][a-z0-9-]*[a-z0-9]$/;

const name = text({ maxChars: STYLE_LIMITS.nameChars, required: '"name" is required: the new style\'s name.' })
  .superRefine((value, ctx) => {
    if (!NAME.test(value))
      refuse(
        ctx,
        'invalid_value',
        (f) => `"${f}" must be 2–40 lower-case letters, digits and hyphens, starting with a letter ("night-drive").`,
      );
  })
  .meta({ pattern: NAME.source, description: "The style's name, unique among yours and the built-in ones." });

const bpm = strictBody({
  min: number({ min: MIN_BPM, max: MAX_BPM, unit: 'bpm' }),
  max: number({ min: MIN_BPM, max: MAX_BPM, unit: 'bpm' }),
})
  .superRefine((range, ctx) => {
    if (range.min > range.max) refuse(ctx, 'invalid_value', (f) => `"${f}.min" must not be above "${f}.max".`);
  })
  .meta({ description: 'The tempo range, in beats a listener taps (as "bpm" counts them).' });

const instruments = z
  .record(z.string(), z.union([z.string(), z.null()]), {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? `"instruments" must be an object of a role and an instrument each: {"lead": "flute", "texture": null}.`
        : undefined,
  })
  .superRefine((roles, ctx) => {
    const wrong = Object.keys(roles).find((role) => !(STYLE_ROLES as readonly string[]).includes(role));
    if (wrong !== undefined)
      refuse(ctx, 'invalid_value', () => `"${wrong}" is not a role: use ${STYLE_ROLES.join(', ')}.`);
  })
  .meta({
    propertyNames: { enum: [...STYLE_ROLES] },
    description: 'An instrument per role ("lead": "flute", "chords": "acoustic guitar"); null leaves the role out.',
  });

const modes = z
  .array(z.enum(KEY_MODES as [string, ...string[]]), {
    error: () => `"modes" must be an array of modes: ${KEY_MODES.join(', ')}.`,
  })
  .min(1, { error: () => `"modes" must name at least one mode.` })
  .meta({ description: 'The modes the style chooses among by mood. Not with "key".' });

export const StyleRequest = strictBody({
  name,
  from: text({ maxChars: 100, required: '"from" is required: a style from GET /v1/styles to start from.' }).meta({
    description: 'A style from GET /v1/styles to start from: a built-in one or one of yours.',
  }),
  description: text({ maxChars: STYLE_LIMITS.descriptionChars }).nullish(),
  bpm: bpm.nullish(),
  key: text({ maxChars: 40 })
    .nullish()
    .meta({ description: 'A key the style prefers, "F# minor": played unless the prompt or "key" names one.' }),
  modes: modes.nullish(),
  time_signature: z
    .enum(METERS, { error: () => `"time_signature" must be one of ${METERS.join(', ')}.` })
    .nullish()
    .meta({ description: 'The meter the style plays in, unless the prompt or "time_signature" names one.' }),
  instruments: instruments.nullish(),
  groove: text({ maxChars: 100 })
    .nullish()
    .meta({ description: 'A built-in style of the same meter whose drum groove and bass playing this one takes.' }),
  swing: number({ min: 0, max: 1 }).nullish().meta({ description: '0 straight … 1 full triplet swing.' }),
  reverb: number({ min: 0, max: 1 }).nullish().meta({ description: 'The reverb send, 0–1.' }),
  vocals: boolean().nullish().meta({
    description:
      'Whether the style sings when the prompt does not say (a prompt asking for a song, or lyrics, still sing; "instrumental": true never does).',
  }),
}).superRefine((body, ctx) => {
  if (body.key != null && body.modes != null)
    refuse(ctx, 'conflicting_fields', () => '"key" gives the mode already: send "key" or "modes", not both.');
});

export function parseStyleRequest(body: Record<string, unknown>): NewStyle {
  const given = parseWith(StyleRequest, body);
  const changes: StyleChanges = {};
  if (given.bpm != null) changes.bpm = given.bpm;
  if (given.key != null) changes.key = given.key;
  if (given.modes != null) changes.modes = given.modes;
  if (given.time_signature != null) changes.time_signature = given.time_signature;
  if (given.instruments != null) changes.instruments = given.instruments;
  if (given.groove != null) changes.groove = given.groove.toLowerCase();
  if (given.swing != null) changes.swing = given.swing;
  if (given.reverb != null) changes.reverb = given.reverb;
  if (given.vocals != null) changes.vocals = given.vocals;
  return { name: given.name, from: given.from.toLowerCase(), description: given.description ?? undefined, changes };
}
