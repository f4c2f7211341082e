/**
 * The engine as a library (issue 26, part 5), typed by lib/engine.d.ts and loaded by lib/engine.js: a request is
 * POST /v1/generate's body, read by the API's own reader (the same validation and defaults), plus `formats`.
 */
import {
  EngineError,
  interpret as interpretSpec,
  listStyles as engineStyles,
  renderTrack as renderEngineTrack,
  type GenerationRequest,
  type OutputOptions,
} from '../../engine/index.ts';
import { ValidationError } from '../domain/errors.ts';
import { parseGenerateRequest } from '../requests/generate-request.ts';
import type * as Library from '../../lib/engine.d.ts';

export { EngineError, ValidationError };

const FORMATS = ['mp3', 'opus', 'flac'] as const;
/** Fields only a server has a use for. */
const SERVER_ONLY = ['callback_url', 'variations'];

function engineRequest(request: Library.TrackRequest): GenerationRequest {
  const { formats = [], ...body } = request;
  for (const field of SERVER_ONLY)
    if (Object.hasOwn(body, field))
      throw new ValidationError(
        field,
        `"${field}" is for the API only: a library render has no use for it.`,
        'unknown_field',
      );
  if (!Array.isArray(formats) || formats.some((f) => !(FORMATS as readonly string[]).includes(f)))
    throw new ValidationError(
      'formats',
      `"formats" lists some of ${FORMATS.join(', ')} (the WAV and MIDI always come).`,
    );
  const { request: parsed } = parseGenerateRequest(body, engineStyles());
  const encoding = parsed.encoding;
  const output: OutputOptions = {
    formats: [...new Set(formats)],
    ...(encoding ? { sampleRate: encoding.sample_rate, bitDepth: encoding.bit_depth } : {}),
    ...(encoding?.bitrate ? { mp3Bitrate: encoding.bitrate as NonNullable<OutputOptions['mp3Bitrate']> } : {}),
  };
  return {
    prompt: parsed.prompt,
    duration: parsed.duration,
    style: parsed.style,
    instrumental: parsed.instrumental,
    seed: parsed.seed,
    lyrics: parsed.lyrics,
    output,
    ...(parsed.stems === true ? { stems: true } : {}),
    ...(parsed.loop === true ? { loop: true } : {}),
    ...(parsed.music ? { music: parsed.music } : {}),
    ...('plan' in parsed && parsed.plan ? { plan: parsed.plan } : {}),
  };
}

export const renderTrack: typeof Library.renderTrack = async (request, options = {}) => {
  const track = await renderEngineTrack(engineRequest(request), options);
  const loop = track.metadata.loop;
  return {
    title: track.title,
    seed: track.seed,
    duration: loop ? loop.seconds : Math.round(track.audioSeconds * 1000) / 1000,
    wav: track.wav,
    midi: track.midi,
    ...(track.outputs.mp3 ? { mp3: track.outputs.mp3 } : {}),
    ...(track.outputs.opus ? { opus: track.outputs.opus } : {}),
    ...(track.outputs.flac ? { flac: track.outputs.flac } : {}),
    ...(track.stems ? { stems: track.stems.map(({ role, wav }) => ({ role, wav })) } : {}),
    metadata: track.metadata as unknown as Record<string, unknown>,
  };
};

export const interpret: typeof Library.interpret = (request) =>
  interpretSpec(engineRequest(request)) as unknown as ReturnType<typeof Library.interpret>;

export const listStyles: typeof Library.listStyles = () =>
  engineStyles().map(({ name, description }) => ({ name, description }));
