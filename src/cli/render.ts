/** `tunesmith render`: the engine straight from a terminal, no server, no key: prompt in, WAV and MIDI out. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { checkRequest, listStyles, renderTrack, EngineError, type RenderedTrack } from '../../engine/index.ts';
import { ProgressBar } from './progress.ts';
import { readRenderOutput } from './render-output.ts';
import { MUSICAL_HELP, MUSICAL_OPTIONS, readMusicalOptions } from './musical-options.ts';
import { PLAN_HELP, fullySized, readPlanOption } from './plan-option.ts';
import { UsageError, parse, positiveInteger, printHelp, text, type Command } from './usage.ts';

const MAX_SEED = 2147483647;

export const render: Command = {
  summary: 'Render a track from a prompt to an audio file (WAV, MP3, Opus or FLAC) and MIDI (no server needed)',
  help: `Usage: tunesmith render "PROMPT" [--duration S] [--style NAME] [--seed N] [--instrumental | --lyrics FILE] [--format wav|mp3|opus|flac] [--sample-rate HZ] [--bit-depth BITS] [--bitrate KBPS] [--loop] [--stems DIR]
                        [--bpm N] [--key KEY] [--time-signature M] [--plan FILE] [--out FILE] [--json]

Runs the engine in this process and writes FILE (by default a 16-bit stereo 44.1 kHz WAV) and FILE with .mid (MIDI).
Prints what the engine understood from the prompt (genre, tempo, key, instruments and why).

Options:
  --duration S       length in seconds, 1–600 (the API allows 30–180)  [default: 60]
  --style NAME       a style preset (run with --styles to list them)
  --seed N           0–${MAX_SEED}: the same prompt, options and seed give the same file  [default: random]
  --instrumental     never sing (otherwise a song-like prompt or style is sung, with lyrics written for it)
  --lyrics FILE      sing these words (UTF-8 text, up to 3000 characters, optional [Verse] [Chorus] [Bridge] tags)
  --format F         wav, mp3 (LAME VBR -V2, ~190 kbps), opus (Ogg Opus 160 kbps, 48 kHz) or flac  [default: wav]
  --sample-rate HZ   44100 or 48000, for wav and flac  [default: 44100]
  --bit-depth BITS   16 or 24, for wav and flac  [default: 16]
  --bitrate KBPS     a constant MP3 bitrate: 96, 128, 160, 192, 256 or 320  [default: VBR]
  --loop             a seamless loop: whole bars (the duration moves to the nearest bar), no intro or ending,
                     the end flowing into the start
  --stems DIR        also write one WAV per part (drums.wav, bass.wav, chords.wav, pad.wav, arp.wav, lead.wav,
                     vocal.wav, texture.wav: those the track has) into DIR; they add up to the mix
${MUSICAL_HELP}
${PLAN_HELP}
  --out FILE         where to write the audio  [default: ./<title>.<format>]
  --styles           list the style presets and exit
  --json             print the result as one JSON line instead of text
  -h, --help         show this help

On a terminal, a progress line on stderr shows the phase and the percentage while it renders (not with --json,
and never when stderr is a pipe or a file).`,
  async run(args, io) {
    const parsed = parse(
      args,
      {
        duration: { type: 'string' },
        style: { type: 'string' },
        seed: { type: 'string' },
        instrumental: { type: 'boolean' },
        lyrics: { type: 'string' },
        format: { type: 'string' },
        'sample-rate': { type: 'string' },
        'bit-depth': { type: 'string' },
        bitrate: { type: 'string' },
        loop: { type: 'boolean' },
        stems: { type: 'string' },
        out: { type: 'string' },
        styles: { type: 'boolean' },
        json: { type: 'boolean' },
        plan: { type: 'string' },
        ...MUSICAL_OPTIONS,
      },
      { min: 0, max: 1, names: 'a prompt (in quotes)' },
    );
    if (parsed === 'help') return printHelp(io, this.help);
    if (parsed.values.styles) {
      for (const style of listStyles()) io.out(`${style.name.padEnd(12)} ${style.description}`);
      return 0;
    }
    const prompt = parsed.positionals[0];
    if (prompt === undefined || prompt.trim() === '')
      throw new UsageError('Missing a prompt: tunesmith render "melancholic lo-fi with rainy piano".');
    const duration = positiveInteger('--duration', parsed.values.duration) ?? 60;
    if (duration > 600) throw new UsageError(`--duration expects 1 to 600 seconds, got ${duration}.`);
    const seedText = text(parsed.values.seed);
    const seed = seedText === undefined ? Math.floor(Math.random() * MAX_SEED) : Number(seedText);
    if (!/^\d+$/.test(seedText ?? '0') || seed > MAX_SEED)
      throw new UsageError(`--seed expects a whole number from 0 to ${MAX_SEED}, got "${seedText}".`);

    const output = readRenderOutput(parsed.values);
    const lyrics = await readLyrics(text(parsed.values.lyrics));
    if (lyrics !== null && parsed.values.instrumental)
      throw new UsageError('--lyrics cannot be used with --instrumental. Drop one of them.');

    const stemsDir = text(parsed.values.stems);
    if (stemsDir !== undefined && stemsDir.trim() === '') throw new UsageError('--stems expects a directory.');
    const music = readMusicalOptions(parsed.values);
    const plan = await readPlanOption(text(parsed.values.plan));
    if (plan && fullySized(plan) && parsed.values.duration !== undefined) {
      throw new UsageError(
        '--duration cannot be given with a plan whose every section has bars or seconds: the plan sets the length. Drop --duration.',
      );
    }
    if (plan && parsed.values.loop === true)
      throw new UsageError('--plan cannot be used with --loop (a loop has no intro or ending). Drop one of them.');

    const request = {
      prompt: prompt.trim(),
      duration,
      style: text(parsed.values.style) ?? null,
      instrumental: parsed.values.instrumental === true,
      seed,
      lyrics,
      output: output.options,
      ...(parsed.values.loop === true ? { loop: true } : {}),
      ...(stemsDir !== undefined ? { stems: true } : {}),
      ...(music ? { music } : {}),
      ...(plan ? { plan } : {}),
    };
    let track: RenderedTrack;
    try {
      // Refused before rendering, as the API does: lyrics too long for the track, or nothing singable in them.
      checkRequest(request);
      const bar = io.terminal && !parsed.values.json ? new ProgressBar(io.terminal) : null;
      bar?.update(null);
      try {
        track = await renderTrack(request, { onProgress: (fraction) => bar?.update(fraction) });
      } finally {
        bar?.done();
      }
    } catch (error) {
      // Engine errors (unknown style, lyrics that do not fit) are written for the caller.
      if (error instanceof EngineError) throw new UsageError(error.message);
      throw error;
    }
    const ext = output.format;
    const audioPath = resolve(text(parsed.values.out) ?? `${slug(track.title)}.${ext}`);
    const midiPath = `${audioPath.replace(new RegExp(`\\.${ext}$`, 'i'), '')}.mid`;
    const audio = ext === 'wav' ? track.wav : track.outputs[ext];
    if (!audio) throw new Error(`The engine made no ${ext} file`);
    await writeFile(audioPath, audio);
    await writeFile(midiPath, track.midi);
    const stems = stemsDir !== undefined ? await writeStems(resolve(stemsDir), track) : null;

    const { metadata } = track;
    if (parsed.values.json) {
      // `request`: what a re-render needs, so this line can be given to `tunesmith extend/remix --from`.
      const { output: _output, stems: _stems, ...asked } = request;
      io.out(
        JSON.stringify({
          [ext]: audioPath,
          midi: midiPath,
          ...(stems ? { stems } : {}),
          title: track.title,
          seed: track.seed,
          render_ms: Math.round(track.renderMs),
          request: asked,
          metadata,
        }),
      );
      return 0;
    }
    io.out(
      `"${track.title}" — ${metadata.genre}, ${metadata.bpm} bpm, ${metadata.key}, ${metadata.meter}, seed ${track.seed}`,
    );
    io.out(`Instruments: ${metadata.instruments.join(', ')}`);
    io.out(
      `Form: ${metadata.plan.map((section) => `${section.kind} ${section.bars} bars @ ${section.start} s`).join(' → ')}`,
    );
    if (metadata.loop)
      io.out(
        `Loop: ${metadata.loop.bars} bars, ${metadata.loop.seconds} s (asked ${metadata.loop.requested_seconds} s)`,
      );
    if (metadata.lyrics !== null)
      io.out(`Lyrics (${metadata.vocals ? 'sung' : 'not sung'}):\n${indent(metadata.lyrics)}`);
    io.out('Why:');
    for (const entry of metadata.trace) io.out(`  ${entry.source.padEnd(18)} ${entry.effect}`);
    if (metadata.warnings.length > 0) io.out(`Warnings:\n${metadata.warnings.map((w) => `  ${w}`).join('\n')}`);
    const seconds = Math.round(track.audioSeconds * 100) / 100;
    io.out(
      `Rendered ${seconds} s in ${(track.renderMs / 1000).toFixed(2)} s (${(seconds / (track.renderMs / 1000)).toFixed(1)}× real time)`,
    );
    io.out(`Wrote ${[audioPath, midiPath, ...(stems ?? []).map((stem) => stem.path)].join('\n      ')}`);
    return 0;
  },
};

/** Writes each stem as DIR/<role>.wav (making DIR); returns what was written where. */
async function writeStems(dir: string, track: RenderedTrack): Promise<{ role: string; path: string }[]> {
  await mkdir(dir, { recursive: true });
  return Promise.all(
    (track.stems ?? []).map(async (stem) => {
      const path = join(dir, `${stem.role}.wav`);
      await writeFile(path, stem.wav);
      return { role: stem.role, path };
    }),
  );
}

/** The file's text; its length and content are checked by the engine (checkRequest), as for the API. */
async function readLyrics(path: string | undefined): Promise<string | null> {
  if (path === undefined) return null;
  let content: string;
  try {
    content = await readFile(resolve(path), 'utf8');
  } catch (error) {
    throw new UsageError(`--lyrics: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  if (content.trim() === '') throw new UsageError(`--lyrics: ${path} is empty.`);
  return content;
}

function indent(block: string): string {
  return block
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'track'
  );
}
