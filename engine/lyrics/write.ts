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
  bareLine,
  bodyOf,
  newNarrator,
  pickSingle,
  suitsMood,
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
  const song: Song = {
    symbols: material.symbols,
    proper: material.proper,
    valence: input.valence,
    used: new Set(),
    sung: new Set(),
  };
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
  // The chorus is written whole for the longest chorus; a shorter one (a 4-bar chorus, or the last one cut by the
  // ending) sings its first lines, the hook and its answer.
  const chorusLines = Math.max(...choruses.map((s) => s.lines));
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
  const verseRanges = input.plan.sections.filter((s) => s.kind === 'verse' && s.lines > 0).map((s) => s.syllables);
  const refrainLines =
    choruses.length === 0 && verseRanges.length > 0
      ? writeRefrain(chorusRange(verseRanges), hook, material, song, random.fork('refrain'))
      : null;
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
    // A form with no chorus ends each verse on the refrain instead: the title is still sung. The answer is left
    // out where the lines before it would not pair up.
    const room = spec.lines - opening.length;
    const refrain =
      refrainLines === null || spec.kind !== 'verse' || room < 1
        ? []
        : room % 2 === 0 && room >= 2
          ? refrainLines
          : refrainLines.slice(-1);
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
  // Few subjects have lines of their own to lead into a chorus: their chorus couplets before the general ones, which
  // would else open the pre-chorus of every song alike ("Oh, here it comes, here it comes").
  pre: [
    ['lead', 'pre', 10],
    ['lead', 'chorus', 4],
    ['topic', 'chorus', 4],
    ['general', 'pre', 1],
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
  // Then, step by step, the narrator gives way: a line sung twice over, then a line sung elsewhere in the song, and
  // last of all the section's narrator and its filler allowance (a line in another narrator beats a line left out).
  // Each step is taken from the narrator as the steps before left it.
  const steps: ((who: Narrator) => Narrator)[] = [
    (who) => who,
    (who) => ({ ...who, doubles: true }),
    (who) => ({ ...who, reuse: true, doubles: true }),
    (who) => ({ ...who, reuse: true, doubles: true, person: 'none', fillersLeft: count }),
  ];
  for (const step of steps) {
    if (lines.length >= count) break;
    lines.push(...writeCouplets(count - lines.length, range, everything, song, random, step(narrator)));
  }
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
  const closes = count >= 4;
  const middle = count - 1 - (closes ? 1 : 0);
  // The lines after the hook answer it, so even a chorus sung short rhymes: one answer before couplets when an odd
  // number of lines is left, else two.
  const wantedAnswers = middle % 2 === 1 ? 1 : middle >= 2 ? 2 : 0;
  const hookLine = pickHook(hook, range, material, song, random, wantedAnswers);
  // The hook's own "Oh," does not count against the line after it: "Oh, Biscuit, you're my best friend / And I'll
  // love you till the end" reads as one thought.
  if (hookLine.person !== 'none') narrator.person = hookLine.person;
  song.sung.add(bareLine(hookLine.text));
  if (count === 1) return [lyricLine(hookLine, true)];
  const found = pickAnswers(wantedAnswers, hookLine, hook, range, material, song, random, narrator);
  // The answer follows the hook even when it is the only one: a shorter chorus sings just those two lines.
  const answers = found;
  const rest = writeSection(middle - answers.length, range, 'chorus', material, song, random, narrator);
  return [
    lyricLine(hookLine, true),
    ...[...answers, ...rest].map((line) => lyricLine(line, false)),
    ...(closes ? [lyricLine(hookLine, true)] : []),
  ];
}

/** The refrain of a form without a chorus: a line that rhymes with the hook, then the hook. */
function writeRefrain(range: Range, hook: Hook, material: Material, song: Song, random: Random): LyricLine[] {
  const hookLine = pickHook(hook, range, material, song, random, 1);
  const answer = pickAnswers(1, hookLine, hook, range, material, song, random, newNarrator(2));
  return [...answer.map((line) => lyricLine(line, false)), lyricLine(hookLine, true)];
}

/**
 * The hook line that fits the chorus best and has lines to rhyme with it: the title's own answers or, failing
 * them, the song's lines that end on its rhyme ("Windows down" / "Driving out of town"). A hook nothing rhymes
 * with ("Who's the best dog in the world? Biscuit") is taken only when no other fits. When none fits the range,
 * the shortest, which the singer still sings.
 */
function pickHook(
  hook: Hook,
  range: Range,
  material: Material,
  song: Song,
  random: Random,
  wantedAnswers: number,
): Fitted {
  const rhymesFor = wantedAnswers > 0 ? answerEnds(hook, range, material, song) : null;
  const fitAll = (templates: readonly string[], extra: number) =>
    templates.flatMap((h) =>
      fitLine(h, range, hook.symbols, { proper: song.proper, filler: 'oh' }).map((line) => ({
        ...line,
        cost: line.cost + extra,
      })),
    );
  const fitted = [
    ...fitAll(hook.hooks, 0),
    ...fitAll(hook.longHooks.filter((h) => suitsMood(h, song.valence)).map(bodyOf), 1),
    ...fitAll(hook.spare, 2.5),
  ].map((h) => {
    if (rhymesFor === null) return h;
    const ends = [...(rhymesFor.get(h.rhyme) ?? [])].filter(
      (a) => a.onset !== h.onset && a.end !== h.end && !sameFiller(h, a),
    );
    const available = new Set(ends.map((a) => a.end)).size;
    return { ...h, cost: h.cost + 4 * Math.max(0, wantedAnswers - available) };
  });
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

/** Lines that could answer a hook, by rhyme part: the title's answers and any unsung line of the song's pools that fits. */
function answerEnds(
  hook: Hook,
  range: Range,
  material: Material,
  song: Song,
): Map<string, { end: string; onset: string; text: string }[]> {
  const out = new Map<string, { end: string; onset: string; text: string }[]>();
  const add = (line: Fitted) => {
    if (line.doubled) return;
    const list = out.get(line.rhyme) ?? [];
    list.push({ end: line.end, onset: line.onset, text: line.text });
    out.set(line.rhyme, list);
  };
  for (const answer of [...hook.answers, ...hook.longAnswers].filter((a) => suitsMood(a, song.valence)))
    for (const line of fitLine(bodyOf(answer), range, hook.symbols, { proper: song.proper, filler: 'oh' })) add(line);
  for (const pool of answerPools(material, range))
    for (const template of pool.templates) {
      if (song.used.has(template) || !suitsMood(template, song.valence)) continue;
      for (const half of bodyOf(template).split(' / '))
        for (const line of fitLine(half, range, song.symbols, { proper: song.proper, filler: null })) add(line);
    }
  return out;
}

/** The pools an answer to the hook may come from when the title's own answers run out. */
const answerPools = (material: Material, range: Range): Pool[] =>
  (['chorus', 'verse', 'later', 'bridge', 'pre'] as const).flatMap((part) => poolsFor(part, material, range));

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
  // The title's own answers first, then the long ones (answers joined) a long phrase needs, then a songbook line
  // that rhymes with the hook. Failing all of them in the section's narrator and filler rules, a rhyme beats the
  // rules: any person, a line opening on a filler (though not on the hook's own).
  const answers = [...shuffle(hook.answers, random), ...shuffle(hook.longAnswers, random)].filter((a) =>
    suitsMood(a, song.valence),
  );
  const everything = answerPools(material, range);
  const title = clauses({ text: [...(hook.symbols.get('title') ?? [])].join(' ') })[0] ?? '';
  const accept = (l: Fitted) =>
    !l.doubled &&
    rhymes(hookLine, l) &&
    !sameFiller(hookLine, l) &&
    chosen.every((c) => c.end !== l.end) &&
    [hookLine, ...chosen].every((c) => !sharesClause(c, l, title));
  for (const who of [narrator, { ...narrator, person: 'none' as const, fillersLeft: wanted, afterFiller: false }]) {
    for (const answer of answers) {
      if (chosen.length === wanted) break;
      // An answer sung twice over says nothing more: only lines that fit as they are.
      const line = fitLine(bodyOf(answer), range, hook.symbols, { proper: song.proper, filler: 'oh' }).find(
        (l) => accept(l) && allowed([l], who),
      );
      if (line === undefined) continue;
      chosen.push(line);
      take([line], answer, song, who);
    }
    while (chosen.length < wanted) {
      const line = pickSingle(range, everything, song, random, who, accept);
      if (line === null) break;
      chosen.push(line);
    }
  }
  return chosen;
}

/** A line's clauses (split at commas) without their leading fillers: "Oh, the open road, the engine never slowed". */
const clauses = (line: { text: string }): string[] =>
  line.text
    .toLowerCase()
    .split(',')
    .map((c) =>
      c
        .replace(/[^a-z' ]/g, ' ')
        .trim()
        .replace(/^(?:(?:and|oh|so|now|but)\s+)+/, '')
        .trim(),
    )
    .filter((c) => c.split(' ').length >= 2);

/** The words of `short` appear in `long` in order ("where the leaves are piled" in "where the autumn leaves are piled"). */
function within(short: readonly string[], long: readonly string[]): boolean {
  let at = 0;
  for (const word of long) if (word === short[at]) at++;
  return at === short.length;
}

/**
 * Two lines sing the same clause: a joined answer that repeats the hook's ("Oh, the open road, the engine never
 * slowed / And the engine never slowed, the sunlight glowed") says the same thing twice, as does one that sings it
 * with an adjective fewer ("Where the autumn leaves are piled / Where the leaves are piled, free as a child"). The
 * title, echoed after the hook ("Without you, I don't know what's true"), is the chorus's to repeat.
 */
function sharesClause(a: { text: string }, b: { text: string }, title: string): boolean {
  const words = (c: string) => c.split(' ').filter((w) => w !== '');
  return clauses(a).some((x) =>
    clauses(b).some((y) => {
      if (x === y) return true;
      const [short, long] = x.length <= y.length ? [x, y] : [y, x];
      return words(short).length >= 3 && short !== title && within(words(short), words(long));
    }),
  );
}

/** Both lines open on the same filler ("Oh, we roll the windows down / Oh, we're driving out of town"). */
function sameFiller(a: { text: string }, b: { text: string }): boolean {
  const first = (line: { text: string }) =>
    line.text
      .split(' ')[0]
      ?.toLowerCase()
      .replace(/[^a-z]/g, '') ?? '';
  return opensWithFiller(a.text) && first(a) === first(b);
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
