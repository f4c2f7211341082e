/**
 * Writes lyrics for a song plan from what the prompt asks about. The prompt's subjects (the sea, a breakup,
 * a dog called Biscuit, Christmas) are found in the songbook (./songbook.ts); the song is sung under a title
 * its hook carries; the first verse sets the scene, later verses take it on, the bridge turns, and the chorus
 * opens (and, from four lines, closes) on the hook. Every line is a songbook line fitted to its phrase's
 * syllable range, rhymed in couplets by the pronouncing dictionary, with stresses that alternate so the melody
 * can put them on strong beats. A prompt no subject holds is sung about its own words ("about quantum
 * bookkeeping") or, with none, about what its mood suggests. Deterministic by seed.
 */
import type { Random } from '../random.ts';
import type { LyricLine, LyricSection, LyricSectionKind, Lyrics, Subjects } from '../types.ts';
import {
  allowed,
  newNarrator,
  pickSingle,
  take,
  writeCouplets,
  type Pool,
  type Song,
  type Narrator,
} from './couplets.ts';
import { fitLine, opensWithFiller, type Fitted, type Range } from './fit.ts';
import { rhymes } from './measure.ts';
import { parseLine } from './parse.ts';
import { materialFor, singable, type Material } from './material.ts';
import { loadSongbook, type Couplets, type SongPart } from './songbook.ts';
import { hookFor, nameOf, songTitle, type Hook } from './title.ts';

export interface LyricPlan {
  sections: { kind: LyricSectionKind; lines: number; syllables: Range }[];
}

export interface WriteInput {
  prompt: string;
  /** -1 sad … 1 happy. */
  valence: number;
  /** -1 calm … 1 energetic. */
  arousal: number;
  plan: LyricPlan;
  /** Names, occasion, places and topic: names and places are sung, the topic is what a song with no known subject is about. */
  subjects?: Subjects;
  /** The track's title, which the hook sings; without it the writer titles the song itself. */
  title?: string;
}

export function writeLyrics(input: WriteInput, random: Random): Lyrics {
  validatePlan(input.plan);
  const material = materialFor(input.prompt, input.valence, input.arousal, input.subjects);
  const song: Song = { symbols: material.symbols, proper: material.proper, valence: input.valence, used: new Set() };
  const { subjects } = material;
  const titled =
    input.title ??
    songTitle(material.lead, subjects, material.symbols, random.fork('title')) ??
    fallbackTitle(material);
  // A title the singer cannot read ("Маша's Birthday") stays the track's title; the hook sings the song's own.
  const title = singable(titled) ? titled : fallbackTitle(material);
  const hook = hookFor(
    title,
    [material.lead, material.second].filter((s) => s !== null),
    material.symbols,
    subjects,
  );
  const choruses = input.plan.sections.filter((s) => s.kind === 'chorus' && s.lines > 0);
  const chorusLines = Math.min(...choruses.map((s) => s.lines));
  const chorus =
    choruses.length === 0
      ? []
      : writeChorus(
          chorusLines,
          chorusRange(choruses.map((s) => s.syllables)),
          hook,
          material,
          song,
          random.fork('chorus'),
        );
  let verses = 0;
  const sections: LyricSection[] = input.plan.sections.map((spec, index) => {
    if (spec.kind === 'chorus') return { kind: 'chorus', lines: chorus.slice(0, spec.lines) };
    const part: SongPart =
      spec.kind === 'bridge'
        ? 'bridge'
        : spec.kind === 'prechorus'
          ? 'pre'
          : spec.kind === 'verse' && verses++ === 0
            ? 'verse'
            : 'later';
    const sectionRandom = random.fork(`${spec.kind}-${index}`);
    const narrator = newNarrator(spec.lines);
    // A place the prompt names opens the first verse: "Take me back to Lisbon, take me home".
    const opening =
      part === 'verse' && subjects?.places[0] !== undefined
        ? writeCouplets(
            Math.min(2, spec.lines),
            spec.syllables,
            [{ templates: loadSongbook().general.place ?? [], weight: 1 }],
            song,
            sectionRandom,
            narrator,
          )
        : [];
    // A form with no chorus ends each verse on the hook instead, as a refrain: the title is still sung.
    const refrain =
      choruses.length === 0 && spec.kind === 'verse' && spec.lines - opening.length >= 1
        ? writeRefrain(
            spec.lines - opening.length,
            spec.syllables,
            hook,
            material,
            song,
            random.fork('refrain'),
            narrator,
          )
        : [];
    const rest = writeSection(
      spec.lines - opening.length - refrain.length,
      spec.syllables,
      part,
      material,
      song,
      sectionRandom,
      narrator,
    );
    return { kind: spec.kind, lines: [...[...opening, ...rest].map((line) => lyricLine(line, false)), ...refrain] };
  });
  return { source: 'written', sections };
}

/** A song with neither a subject title nor a title given: its topic, or its lead subject's first title. */
function fallbackTitle(material: Material): string {
  const { subjects } = material;
  const topic = subjects?.topic;
  if (topic) return topic.replace(/^(?:a|an|the)\s+/i, '');
  const first = material.lead?.titles[0]?.title ?? 'Sing Along';
  return first.replace(/#name#/g, nameOf(subjects) ?? 'you');
}

type Source = 'lead' | 'topic' | 'second' | 'general';

/**
 * Per part of the song, whose couplets of which part it draws on and how heavily: the lead subject's own lines
 * (or the prompt's topic) first, a second subject's now and then, the general songbook's rarely.
 */
const DRAWS: Record<SongPart, [Source, SongPart, number][]> = {
  verse: [
    ['lead', 'verse', 10],
    ['topic', 'verse', 10],
    ['second', 'verse', 2],
    ['lead', 'later', 1],
    ['general', 'verse', 0.2],
  ],
  later: [
    ['lead', 'later', 10],
    ['topic', 'later', 10],
    ['lead', 'verse', 2],
    ['second', 'later', 2],
    ['general', 'later', 0.2],
  ],
  pre: [
    ['lead', 'pre', 10],
    ['general', 'pre', 3],
    ['lead', 'chorus', 1],
  ],
  chorus: [
    ['lead', 'chorus', 10],
    ['topic', 'chorus', 10],
    ['second', 'chorus', 1],
    ['general', 'chorus', 0.3],
  ],
  bridge: [
    ['lead', 'bridge', 10],
    ['topic', 'bridge', 10],
    ['second', 'bridge', 2],
    ['general', 'bridge', 1],
  ],
  short: [
    ['lead', 'short', 10],
    ['topic', 'short', 10],
    ['second', 'short', 2],
    ['general', 'short', 1],
  ],
};

/** The pools a part of the song draws on, heaviest first. */
function poolsFor(part: SongPart, material: Material, range: Range): Pool[] {
  const sources: Record<Source, Couplets | null> = {
    lead: material.lead,
    topic: material.topic,
    second: material.second,
    general: loadSongbook().general,
  };
  const pools = (of: SongPart): Pool[] =>
    DRAWS[of].flatMap(([source, key, weight]) => {
      const templates = sources[source]?.[key];
      return templates === undefined ? [] : [{ templates, weight }];
    });
  // Slow songs sing short phrases: the short couplets join every part.
  return range.max <= 7 ? [...pools(part), ...pools('short')] : pools(part);
}

function writeSection(
  count: number,
  range: Range,
  part: SongPart,
  material: Material,
  song: Song,
  random: Random,
  narrator: Narrator,
): Fitted[] {
  if (count <= 0) return [];
  const lines = writeCouplets(count, range, poolsFor(part, material, range), song, random, narrator);
  if (lines.length === count) return lines;
  // Out of the part's own couplets: any part's will do, then one sung elsewhere in the song, before a line is left unwritten.
  const everything = (['later', 'verse', 'chorus', 'bridge', 'pre', 'short'] as const).flatMap((p) =>
    poolsFor(p, material, range),
  );
  lines.push(...writeCouplets(count - lines.length, range, everything, song, random, narrator));
  if (lines.length < count)
    lines.push(...writeCouplets(count - lines.length, range, everything, song, random, { ...narrator, reuse: true }));
  // Last of all the section's narrator and its filler allowance give way: a line in another narrator beats a line left out.
  if (lines.length < count)
    lines.push(
      ...writeCouplets(count - lines.length, range, everything, song, random, {
        ...narrator,
        reuse: true,
        person: 'none',
        fillersLeft: count,
      }),
    );
  return lines;
}

/**
 * The chorus: the hook first; then lines that rhyme with it (answers) and couplets; from four lines on, the
 * hook again at the end. Every chorus of the song sings these lines.
 */
function writeChorus(
  count: number,
  range: Range,
  hook: Hook,
  material: Material,
  song: Song,
  random: Random,
): LyricLine[] {
  const narrator = newNarrator(count);
  const hookLine = pickHook(hook, range, song, random, count >= 2);
  if (hookLine.person !== 'none') narrator.person = hookLine.person;
  narrator.afterFiller = opensWithFiller(hookLine.text);
  if (count === 1) return [lyricLine(hookLine, true)];
  const closes = count >= 4;
  const middle = count - 1 - (closes ? 1 : 0);
  const wantedAnswers = middle % 2 === 1 ? 1 : middle === 2 ? 2 : 0;
  const found = pickAnswers(wantedAnswers, hookLine, hook, range, material, song, random, narrator);
  // One answer where two were wanted would leave the other line rhyming with nothing: a couplet takes both places.
  const answers = found.length === wantedAnswers ? found : found.slice(0, wantedAnswers % 2);
  const rest = writeSection(middle - answers.length, range, 'chorus', material, song, random, narrator);
  return [
    lyricLine(hookLine, true),
    ...[...answers, ...rest].map((line) => lyricLine(line, false)),
    ...(closes ? [lyricLine(hookLine, true)] : []),
  ];
}

/** A verse's last lines in a form without a chorus: a line that rhymes with the hook, then the hook. */
function writeRefrain(
  room: number,
  range: Range,
  hook: Hook,
  material: Material,
  song: Song,
  random: Random,
  narrator: Narrator,
): LyricLine[] {
  const hookLine = pickHook(hook, range, song, random, room >= 2);
  const answer = room >= 2 ? pickAnswers(1, hookLine, hook, range, material, song, random, narrator) : [];
  return [...answer.map((line) => lyricLine(line, false)), lyricLine(hookLine, true)];
}

/**
 * The hook line that fits the chorus best, one its answers rhyme with when the chorus has room for them; when
 * none fits, the shortest, which the singer still sings.
 */
function pickHook(hook: Hook, range: Range, song: Song, random: Random, answered: boolean): Fitted {
  const answers = answered
    ? hook.answers.flatMap((a) =>
        fitLine(a, range, hook.symbols, { proper: song.proper, filler: 'oh' })
          .filter((l) => !l.doubled)
          .slice(0, 1),
      )
    : [];
  const fitAll = (templates: readonly string[], extra: number) =>
    templates.flatMap((h) =>
      fitLine(h, range, hook.symbols, { proper: song.proper, filler: 'oh' }).map((line) => ({
        ...line,
        cost: line.cost + extra,
      })),
    );
  const fitted = [...fitAll(hook.hooks, 0), ...fitAll(hook.spare, 2.5)].map((h) => ({
    ...h,
    cost: h.cost + (answers.length > 0 && !answers.some((a) => rhymes(h, a)) ? 3 : 0),
  }));
  if (fitted.length > 0) {
    const best = fitted
      .slice()
      .sort((a, b) => a.cost - b.cost)
      .slice(0, 3);
    return random.weighted(
      best,
      best.map((h) => Math.exp(-h.cost)),
    );
  }
  const loose = [...hook.hooks, ...hook.spare].flatMap((h) =>
    fitLine(h, { min: 1, max: 99 }, hook.symbols, { proper: song.proper, filler: null }),
  );
  const within = loose.filter((h) => h.syllables <= range.max).sort((a, b) => b.syllables - a.syllables);
  const shortest = loose.slice().sort((a, b) => a.syllables - b.syllables);
  const chosen = within[0] ?? shortest[0];
  if (chosen === undefined)
    throw new Error(`The hook for "${[...(hook.symbols.get('title') ?? [])].join('')}" has no lines`);
  return chosen;
}

/** Lines rhyming with the hook: the title's own answers first, then any chorus line that happens to rhyme. */
function pickAnswers(
  wanted: number,
  hookLine: Fitted,
  hook: Hook,
  range: Range,
  material: Material,
  song: Song,
  random: Random,
  narrator: Narrator,
): Fitted[] {
  if (wanted === 0) return [];
  const chosen: Fitted[] = [];
  for (const answer of shuffle(hook.answers, random)) {
    if (chosen.length === wanted) break;
    // An answer sung twice over says nothing more: only lines that fit as they are, in the section's narrator.
    const line = fitLine(answer, range, hook.symbols, { proper: song.proper, filler: 'oh' }).find(
      (l) => !l.doubled && rhymes(hookLine, l) && allowed([l], narrator) && chosen.every((c) => c.end !== l.end),
    );
    if (line === undefined) continue;
    chosen.push(line);
    take([line], answer, song, narrator);
  }
  // An answer written for the title may still be missing: a songbook line that rhymes with the hook stands in.
  const everything = (['chorus', 'verse', 'later', 'bridge', 'pre'] as const).flatMap((part) =>
    poolsFor(part, material, range),
  );
  while (chosen.length < wanted) {
    const line = pickSingle(
      range,
      everything,
      song,
      random,
      narrator,
      (l) => !l.doubled && rhymes(hookLine, l) && chosen.every((c) => c.end !== l.end),
    );
    if (line === null) break;
    chosen.push(line);
  }
  return chosen;
}

function shuffle<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function lyricLine(line: Fitted, hook: boolean): LyricLine {
  const parsed = parseLine(line.text);
  return hook ? { ...parsed, hook: true } : parsed;
}

/** The chorus is sung the same everywhere, so it fits every chorus's range when they overlap, else the first. */
function chorusRange(ranges: readonly Range[]): Range {
  const min = Math.max(...ranges.map((r) => r.min));
  const max = Math.min(...ranges.map((r) => r.max));
  return min <= max ? { min, max } : (ranges[0] ?? { min, max: min });
}

function validatePlan(plan: LyricPlan): void {
  for (const s of plan.sections) {
    if (!Number.isInteger(s.lines) || s.lines < 0)
      throw new RangeError(`A lyric section needs a whole number of lines, got ${s.lines}`);
    if (!(s.syllables.min >= 1 && s.syllables.max >= s.syllables.min)) {
      throw new RangeError(`A lyric line needs 1 <= min <= max syllables, got ${s.syllables.min}..${s.syllables.max}`);
    }
  }
}
