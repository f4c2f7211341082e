/**
 * The instruments a cue names: "only" cues ("solo piano", "just a guitar and a voice", "played only on piano and
 * vocals", "piano and cello only", "a violin and viola duet") and "lead" cues ("lead guitar", "the accordion seems
 * to be the lead", "the piano is the lead instrument", "led by a trumpet"). A cue reaches over a few function words
 * to its instrument, and an "only" cue runs along a list joined by "and"/"&"/"plus"/"with".
 */
import { isInstrument, type Raw } from './match.ts';

/** Function words a cue reaches over ("only *on* piano", "just *a* guitar", "the piano *is the* lead"). */
const SKIPPED = new Set([
  'a',
  'an',
  'the',
  'some',
  'on',
  'by',
  'of',
  'one',
  'single',
  'lone',
  'is',
  'are',
  'its',
  'their',
  'toy',
  'little',
  'small',
  'old',
  'player',
  'players',
  'playing',
  'plays',
  'practising',
  'practicing',
  'performing',
]);
/** "a duet for piano and cello": a duet or duo of the instruments after it, not a singer's duet. */
const ENSEMBLES = new Set(['duet', 'duo']);
const OF_NAMED = new Set(['for', 'of', 'between']);
/** "a trumpet solo over a slow jazz ballad": a solo over a piece or a band is its lead; over drums, those alone. */
const OVER = new Set(['over', 'with', 'above', 'against', 'backed', 'accompanied']);
const JOINERS = new Set(['and', '&', 'plus', 'with']);
/** How many function words in a row a cue reaches over. */
const REACH = 2;

export interface Cues {
  /** Raw positions of instruments under an "only" cue, with the cue's words. */
  only: Map<number, string>;
  /** Raw positions of instruments named as the lead. */
  lead: Set<number>;
  /** An "only" list named the singer too ("only piano and vocals"): the singer stays. */
  onlyVocal: boolean;
  /** Raw positions of vocal words that name instruments' ensemble, not a singer ("a duet for piano and cello"). */
  unsung: Set<number>;
}

const isVocal = (raw: Raw | undefined): boolean => raw?.kind === 'content' && raw.items.some((i) => i.kind === 'vocal');
const skippable = (raw: Raw | undefined): boolean => raw?.kind === 'unknown' && SKIPPED.has(raw.phrase);

/** The next instrument or vocal from `start` going `step`, over at most REACH function words. */
function reach(raws: readonly Raw[], start: number, step: 1 | -1): number | null {
  let r = start;
  for (let skipped = 0; skippable(raws[r]) && skipped < REACH; skipped++) r += step;
  return isInstrument(raws[r]) || isVocal(raws[r]) ? r : null;
}

/** Whether an instrument follows the cue ("solo piano"): then "solo" names that one alone. */
function isNamedAfter(raws: readonly Raw[], r: number): boolean {
  const next = reach(raws, r + 1, 1);
  return next !== null && isInstrument(raws[next]);
}

/** Whether the first word that means something after "solo over" is not an instrument ("a slow jazz ballad"). */
function soloOverMusic(raws: readonly Raw[], start: number): boolean {
  for (let r = start; r < raws.length; r++) {
    const raw = raws[r];
    if (raw?.kind === 'boundary') return false;
    if (raw?.kind === 'content') return !isInstrument(raw);
  }
  return false;
}

export function markCues(raws: readonly Raw[]): Cues {
  const cues: Cues = { only: new Map(), lead: new Set(), onlyVocal: false, unsung: new Set() };
  // With a genre stated, "a fretless bass solo" is a solo inside the band, not the bass alone.
  const genreStated = raws.some(
    (raw) => raw.kind === 'content' && raw.items.some((i) => i.kind === 'genre' && i.entry.setting !== true),
  );
  const walkOnly = (start: number, step: 1 | -1, cue: string): void => {
    let r = reach(raws, start, step);
    while (r !== null) {
      if (isInstrument(raws[r])) cues.only.set(r, cue);
      else cues.onlyVocal = true;
      const joiner = raws[r + step];
      if (!(joiner?.kind === 'unknown' && JOINERS.has(joiner.phrase))) break;
      r = reach(raws, r + 2 * step, step);
    }
  };
  raws.forEach((raw, r) => {
    const next = raws[r + 1];
    if (raw.kind === 'content' && ENSEMBLES.has(raw.phrase) && next?.kind === 'unknown' && OF_NAMED.has(next.phrase)) {
      const named = reach(raws, r + 2, 1);
      if (named !== null && isInstrument(raws[named])) {
        cues.unsung.add(r);
        walkOnly(r + 2, 1, `${raw.phrase} ${next.phrase}`);
      }
    }
    // "an electric guitar instrumental": the instrument the instrumental is named after leads it.
    if (raw.kind === 'content' && raw.items.some((i) => i.kind === 'noVocal') && isInstrument(raws[r - 1])) {
      cues.lead.add(r - 1);
    }
    if (raw.kind !== 'cue') return;
    if (raw.phrase === 'solo' && next?.kind === 'unknown' && OVER.has(next.phrase) && soloOverMusic(raws, r + 2)) {
      const soloist = reach(raws, r - 1, -1);
      if (soloist !== null && isInstrument(raws[soloist])) cues.lead.add(soloist);
      return;
    }
    if (raw.phrase === 'solo' && genreStated && !isNamedAfter(raws, r)) {
      const soloist = reach(raws, r - 1, -1);
      if (soloist !== null && isInstrument(raws[soloist])) {
        cues.lead.add(soloist);
        return;
      }
    }
    if (raw.cue === 'only') {
      if (raw.before) walkOnly(r + 1, 1, raw.phrase);
      if (raw.after) walkOnly(r - 1, -1, raw.phrase);
      return;
    }
    // A lead cue names one instrument: the one it stands next to, after it ("lead guitar") or before it.
    const after = raw.before ? reach(raws, r + 1, 1) : null;
    const before = raw.after ? reach(raws, r - 1, -1) : null;
    const named = [after, before].find((k) => k !== null && isInstrument(raws[k]));
    if (named !== undefined && named !== null) cues.lead.add(named);
  });
  return cues;
}
