/**
 * The text side of singing: words -> syllables and phones, user lyrics -> sections, and lyrics written
 * from a prompt. The singer (alignment and synthesis) consumes what this module produces.
 */
export { pronounceWord } from './pronounce.ts';
export { parseLine, parseLyrics, MAX_LYRICS_CHARS } from './parse.ts';
export { writeLyrics, type LyricPlan, type WriteInput } from './write.ts';
export { lyricsText, timedLyricsText, countSyllables } from './text.ts';
export { writtenSongTitle } from './material.ts';
