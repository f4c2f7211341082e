/**
 * The files a completed generation can be downloaded as: their names in download_urls, their extensions, their
 * Content-Types and where they are kept in the data dir. One list, read by the job queue (what to write), the
 * signer (what to link), the file route (what to serve, as what) and the cleanup on delete.
 */
import { OUTPUT_FORMATS, type RenderedTrack } from '../engine/index.ts';
import type { GenerationFiles } from './store/types.ts';

export const DOWNLOADS = {
  wav: { ext: 'wav', contentType: 'audio/wav' },
  mp3: { ext: 'mp3', contentType: 'audio/mpeg' },
  opus: { ext: 'opus', contentType: 'audio/ogg; codecs=opus' },
  flac: { ext: 'flac', contentType: 'audio/flac' },
  midi: { ext: 'mid', contentType: 'audio/midi' },
  // LRC has no registered media type; players go by the extension, browsers show it as text.
  lrc: { ext: 'lrc', contentType: 'text/plain; charset=utf-8' },
  vtt: { ext: 'vtt', contentType: 'text/vtt; charset=utf-8' },
} as const;

/** A key of download_urls (and of a generation's recorded files). */
export type DownloadKind = keyof typeof DOWNLOADS;
export type FileExtension = (typeof DOWNLOADS)[DownloadKind]['ext'];

export const DOWNLOAD_KINDS = Object.keys(DOWNLOADS) as DownloadKind[];
export const FILE_EXTENSIONS = DOWNLOAD_KINDS.map((kind) => DOWNLOADS[kind].ext);

/** The encoded formats the service asks the engine for: every one it offers. */
export const ENCODED_FORMATS = OUTPUT_FORMATS;

export function kindOfExtension(ext: string): DownloadKind | undefined {
  return DOWNLOAD_KINDS.find((kind) => DOWNLOADS[kind].ext === ext);
}

/** What a record has, in the order of DOWNLOADS (records from before the new formats have wav and midi only). */
export function availableKinds(files: GenerationFiles): DownloadKind[] {
  return DOWNLOAD_KINDS.filter((kind) => typeof files[kind] === 'string');
}

export const pathOf = (accountId: string, generationId: string, kind: DownloadKind): string => `audio/${accountId}/${generationId}.${DOWNLOADS[kind].ext}`;

/** A stem's file name after the generation id in its link (`<id>.stem-drums.wav`), and the zip of them all. */
export const stemFile = (role: string): string => `stem-${role}.wav`;
export const STEMS_ZIP = 'stems.zip';

/** Every path a generation's files could have: what a failed save removes. */
export function allFilePaths(accountId: string, generationId: string): string[] {
  return DOWNLOAD_KINDS.map((kind) => pathOf(accountId, generationId, kind));
}

/** The files of a rendered track, as the record lists them and as bytes to write. */
export function trackFiles(accountId: string, generationId: string, track: RenderedTrack): { files: GenerationFiles; writes: [string, Uint8Array][] } {
  const bytes: Partial<Record<DownloadKind, Uint8Array>> = { wav: track.wav, midi: track.midi, ...track.outputs };
  const files: GenerationFiles = { wav: pathOf(accountId, generationId, 'wav'), midi: pathOf(accountId, generationId, 'midi') };
  const writes: [string, Uint8Array][] = [];
  for (const kind of DOWNLOAD_KINDS) {
    const content = bytes[kind];
    if (!content) continue;
    files[kind] = pathOf(accountId, generationId, kind);
    writes.push([files[kind], content]);
  }
  return { files, writes };
}
