/**
 * `tunesmith extend` and `tunesmith remix`: the API's extend and redo-a-section on files, no server: a source WAV
 * and what it was made from (a saved GET /v1/generation/{id} body, or the line `render --json` printed), checked
 * with the API's own rules and derived by the same domain code, then rendered and spliced in this process.
 */
import { sungOf } from '../jobs/splice-source.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import wavefile from 'wavefile';
import { renderTrack, EngineError, type MusicalFields, type RenderedTrack } from '../../engine/index.ts';
import { assertDerivable, derivedInput, type Derivation } from '../domain/generations/derive.ts';
import type { GenerationInput } from '../domain/generations/generations.ts';
import { GenerationStateError, ValidationError } from '../domain/errors.ts';
import { requestOf } from '../jobs/render-task.ts';
import { LIMITS } from '../requests/generate-request.ts';
import { parseExtend, parseRemix, type Operation } from '../requests/derive-generation.ts';
import type { Generation } from '../domain/model.ts';
import { readPlanOption } from './plan-option.ts';
import { UsageError, parse, positional, printHelp, text, type Command, type Io } from './usage.ts';

const COMMON_HELP = `  --from FILE        what the source was made from: a saved GET /v1/generation/{id} body, or the line
                     \`tunesmith render --json\` printed for it
  --out FILE         where to write the new WAV (and FILE with .mid)  [default: SOURCE-extended.wav / -remixed.wav]
  --json             print the result as one JSON line (the same shape as render --json, so it can be --from again)
  -h, --help         show this help`;

export const extend: Command = {
  summary: 'Continue a rendered track past its last bar line with new material and a new ending (no server needed)',
  help: `Usage: tunesmith extend SOURCE.wav --from SOURCE.json (--seconds N | --plan FILE) [--out FILE] [--json]

Keeps SOURCE.wav sample for sample up to the bar line where its ending starts, then plays new material and a new
ending in the same key and tempo, like POST /v1/generation/{id}/extend.

Options:
  --seconds N        seconds of new material (whole bars), the new track within 30–180 s
  --plan FILE        instead: the sections to play after the source's bars (JSON, as render --plan takes)
${COMMON_HELP}`,
  async run(args, io) {
    const parsed = parse(
      args,
      {
        from: { type: 'string' },
        seconds: { type: 'string' },
        plan: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
      },
      { min: 1, max: 1, names: 'the source WAV' },
    );
    if (parsed === 'help') return printHelp(io, this.help);
    const seconds = text(parsed.values.seconds);
    const plan = await readPlanOption(text(parsed.values.plan));
    const body = {
      ...(seconds !== undefined ? { seconds: Number(seconds) } : {}),
      ...(plan ? { sections: plan } : {}),
    };
    return derive(io, 'extend', positional(parsed, 0), parsed.values, body);
  },
};

export const remix: Command = {
  summary: 'Redo one section of a rendered track, the rest kept sample for sample (no server needed)',
  help: `Usage: tunesmith remix SOURCE.wav --from SOURCE.json --section I [--energy E] [--instruments A,B] [--lyrics FILE] [--seed N] [--out FILE] [--json]

Keeps SOURCE.wav sample for sample outside section I (its index in the source's plan) and plays that section
again with what you change, like POST /v1/generation/{id}/remix.

Options:
  --section I        the section's index in the source's plan (0 for the first)
  --energy E         its new energy, 0–1
  --instruments A,B  only these play in it (role or instrument names)
  --lyrics FILE      new words for it (the source must be sung)
  --seed N           compose it again from this seed (with nothing else given: a new random seed)
${COMMON_HELP}`,
  async run(args, io) {
    const parsed = parse(
      args,
      {
        from: { type: 'string' },
        section: { type: 'string' },
        energy: { type: 'string' },
        instruments: { type: 'string' },
        lyrics: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
      },
      { min: 1, max: 1, names: 'the source WAV' },
    );
    if (parsed === 'help') return printHelp(io, this.help);
    const v = parsed.values;
    const number = (flag: string) => (text(v[flag]) === undefined ? {} : { [flag]: Number(text(v[flag])) });
    const lyricsPath = text(v.lyrics);
    const instruments = text(v.instruments);
    const body = {
      ...number('section'),
      ...number('energy'),
      ...number('seed'),
      ...(instruments !== undefined
        ? {
            instruments: instruments
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== ''),
          }
        : {}),
      ...(lyricsPath !== undefined ? { lyrics: await readText(lyricsPath, '--lyrics') } : {}),
    };
    return derive(io, 'remix', positional(parsed, 0), v, body);
  },
};

async function derive(
  io: Io,
  operation: Operation,
  wavPath: string,
  values: Record<string, string | boolean | undefined>,
  body: Record<string, unknown>,
): Promise<number> {
  const fromPath = text(values.from);
  if (fromPath === undefined)
    throw new UsageError(
      `--from is required: the generation (GET /v1/generation/{id} body or render --json line) that ${wavPath} is.`,
    );
  let derivation: Derivation;
  let source: Generation;
  let input: GenerationInput;
  try {
    derivation = operation === 'extend' ? parseExtend(body) : parseRemix(body);
    source = sourceOf(JSON.parse(await readText(fromPath, '--from')) as unknown, fromPath);
    input = derivedInput(source, assertDerivable(source, operation), derivation, {
      min: LIMITS.minDuration,
      max: LIMITS.maxDuration,
    });
  } catch (error) {
    // The API's 400 and 409 sentences, with the flag for the field.
    if (error instanceof ValidationError || error instanceof GenerationStateError)
      throw new UsageError(flagged(error.message));
    if (error instanceof SyntaxError) throw new UsageError(`--from: ${fromPath} is not valid JSON.`);
    throw error;
  }
  const wav = new Uint8Array(
    await readFile(resolve(wavPath)).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`Cannot read ${wavPath} (${error.code ?? 'error'}).`);
    }),
  );
  const format = wavFormat(wav, wavPath);
  const generation: Generation = {
    ...source,
    ...input,
    encoding: { sample_rate: format.sampleRate, bit_depth: format.bitDepth, bitrate: null },
  };
  const played = assertDerivable(source, operation);
  const splice =
    operation === 'extend'
      ? { kind: 'extend' as const, wav, sections: played.plan, sung: sungOf(source) }
      : {
          kind: 'remix' as const,
          wav,
          sections: played.plan,
          section: input.source?.section ?? 0,
          sung: sungOf(source),
        };
  let track: RenderedTrack;
  try {
    track = await renderTrack(requestOf(generation), { splice });
  } catch (error) {
    if (error instanceof EngineError || error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  const out = resolve(
    text(values.out) ?? wavPath.replace(/\.wav$/i, '') + (operation === 'extend' ? '-extended.wav' : '-remixed.wav'),
  );
  const midi = `${out.replace(/\.wav$/i, '')}.mid`;
  await writeFile(out, track.wav);
  await writeFile(midi, track.midi);
  const request = {
    prompt: generation.prompt,
    duration: generation.duration,
    style: generation.style,
    instrumental: generation.instrumental,
    seed: generation.seed,
    lyrics: generation.lyrics,
    music: generation.music,
    plan: generation.plan,
  };
  if (values.json) {
    io.out(
      JSON.stringify({
        wav: out,
        midi,
        title: track.title,
        seed: track.seed,
        render_ms: Math.round(track.renderMs),
        source: input.source,
        request,
        metadata: track.metadata,
      }),
    );
    return 0;
  }
  const what =
    operation === 'extend'
      ? `Extended to ${Math.round(track.audioSeconds * 10) / 10} s`
      : `Redid section ${input.source?.section}`;
  io.out(`${what}: "${track.title}", ${track.metadata.bpm} bpm, ${track.metadata.key}, ${track.metadata.meter}`);
  io.out(
    `Form: ${track.metadata.plan.map((section) => `${section.kind} ${section.bars} bars @ ${section.start} s`).join(' → ')}`,
  );
  io.out(`Wrote ${out}\n      ${midi}`);
  return 0;
}

/** A generation record from a GET body or a render --json line: what derivedInput reads. */
function sourceOf(json: unknown, path: string): Generation {
  const o = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const request = (typeof o.request === 'object' && o.request !== null ? o.request : o) as Record<string, unknown>;
  const metadata = o.metadata as Record<string, unknown> | undefined;
  if (typeof request.prompt !== 'string' || typeof metadata !== 'object' || metadata === null) {
    throw new UsageError(
      `--from: ${path} is neither a completed generation (GET /v1/generation/{id}) nor a render --json line: it has no prompt or no metadata.`,
    );
  }
  const given = metadata.lyrics_source === 'given';
  return {
    id: typeof o.id === 'string' ? o.id : 'source',
    account_id: 'cli',
    status: 'completed',
    prompt: request.prompt,
    duration: Number(request.duration ?? o.duration ?? 60),
    style: (request.style ?? null) as string | null,
    instrumental: request.instrumental === true,
    seed: Number(request.seed ?? o.seed ?? 0),
    lyrics: given ? ((request.lyrics ?? o.lyrics ?? null) as string | null) : null,
    callback_url: null,
    created_at: new Date(0).toISOString(),
    started_at: null,
    completed_at: null,
    attempts: 1,
    title: (o.title ?? null) as string | null,
    metadata,
    files: { wav: path, midi: path },
    error: null,
    quota_month: '1970-01',
    ...(request.music ? { music: request.music as MusicalFields } : {}),
    ...(metadata.loop ? { loop: true } : {}),
  };
}

function wavFormat(bytes: Uint8Array, path: string): { sampleRate: 44100 | 48000; bitDepth: 16 | 24 } {
  try {
    const fmt = new wavefile.WaveFile(bytes).fmt as { sampleRate: number; bitsPerSample: number; numChannels: number };
    if (
      (fmt.sampleRate === 44100 || fmt.sampleRate === 48000) &&
      (fmt.bitsPerSample === 16 || fmt.bitsPerSample === 24) &&
      fmt.numChannels === 2
    ) {
      return { sampleRate: fmt.sampleRate, bitDepth: fmt.bitsPerSample };
    }
  } catch {
    // Not a WAV at all: said below.
  }
  throw new UsageError(`${path} is not a 16- or 24-bit stereo WAV at 44.1 or 48 kHz as Tunesmith writes them.`);
}

async function readText(path: string, flag: string): Promise<string> {
  try {
    return await readFile(resolve(path), 'utf8');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}

/** The API's messages name JSON fields ("seconds"); on the command line they are flags (--seconds). */
function flagged(message: string): string {
  return message.replace(
    /"(seconds|sections|section|energy|instruments|lyrics|seed)"/g,
    (_, name: string) => `--${name === 'sections' ? 'plan' : name}`,
  );
}
