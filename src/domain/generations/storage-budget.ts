/**
 * An account's storage budget (TUNESMITH_DISK_BUDGET_GB, issue 29 part 8): what its tracks take, reckoned from
 * each track's length and audio options rather than read from the store, so a task waiting or rendering counts
 * before its files exist and a burst of requests cannot each see the same room.
 *
 * A track counts its WAV (frames × 2 channels × bytes per sample), its stems (16-bit 44.1 kHz WAVs, one per role
 * that plays; eight, the most, until it is finished) and as much again as its WAV for the MP3, Opus and FLAC made
 * on first fetch (together they measure under that: FLAC about 0.6 of the WAV, MP3 and Opus a few percent).
 */
import type { TrackSize } from '../model.ts';

/** The most stems a track can have (engine/render/stems.ts: one per role). */
const MAX_STEMS = 8;
const STEM_BYTES_PER_SECOND = 44_100 * 2 * 2;

/** The seconds a track plays: its sections' end once rendered (a plan or a loop sets it), else the asked duration. */
function secondsOf(track: TrackSize): number {
  const sections = track.metadata?.sections;
  const end = Array.isArray(sections) ? (sections.at(-1) as { end?: unknown } | undefined)?.end : undefined;
  return typeof end === 'number' && end > 0 ? end : track.duration;
}

/** Bytes of storage a track takes, or will once finished and fetched in every format. */
export function storageBytesOf(track: TrackSize): number {
  const seconds = secondsOf(track);
  const rate = track.encoding?.sample_rate ?? 44_100;
  const bytesPerSample = (track.encoding?.bit_depth ?? 16) / 8;
  const wav = seconds * rate * 2 * bytesPerSample;
  const stems = track.stems === true ? (track.files?.stems ? Object.keys(track.files.stems).length : MAX_STEMS) : 0;
  return Math.ceil(2 * wav + stems * seconds * STEM_BYTES_PER_SECOND);
}

/** Bytes as an operator reads them: "1.3 GB", "240 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}
