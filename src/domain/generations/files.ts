/**
 * The files a completed generation can be downloaded as, in one table: their names in download_urls (and in the
 * record's `files`), their extensions, their Content-Types. Each is a blob, stored under a key of the generation's
 * own (the path the data dir has always kept it at); stems are blobs too, one per role, beside the mix. Read by the
 * job queue (what to store), the signer (what to link), the file route (what to serve, as what) and delete.
 */
import { LATER_FORMATS, type LaterFormat, type OutputFormat, type RenderedTrack } from '../../../engine/index.ts';
import type { Generation, GenerationFiles } from '../model.ts';

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

/** The files the render makes beside the WAV and the MIDI: the lyrics files (for a sung track). */
export const RENDERED_FORMATS: readonly OutputFormat[] = ['lrc', 'vtt'];

/**
 * The formats made from the stored WAV when first fetched (issue 27: most tracks are downloaded in one format, or
 * none): linked from completion, stored on first download, served from storage from then on.
 */
export const isLaterFormat = (kind: DownloadKind): kind is LaterFormat =>
  (LATER_FORMATS as readonly string[]).includes(kind);

export function kindOfExtension(ext: string): DownloadKind | undefined {
  return DOWNLOAD_KINDS.find((kind) => DOWNLOADS[kind].ext === ext);
}

/** What a record has, in the order of DOWNLOADS (records from before the new formats have wav and midi only). */
export function availableKinds(files: GenerationFiles): DownloadKind[] {
  return DOWNLOAD_KINDS.filter((kind) => typeof files[kind] === 'string');
}

type Owner = Pick<Generation, 'id' | 'account_id'>;

/** The blob key of a generation's file of `kind`. */
export const blobKey = (generation: Owner, kind: DownloadKind): string =>
  `audio/${generation.account_id}/${generation.id}.${DOWNLOADS[kind].ext}`;

/** A stem's file name after the generation id in its link and its key (`<id>.stem-drums.wav`), and the zip of them all. */
export const stemFile = (role: string): string => `stem-${role}.wav`;
export const STEMS_ZIP = 'stems.zip';
export const STEM_CONTENT_TYPE = DOWNLOADS.wav.contentType;

/** The blob key of a generation's stem of `role`, beside the mix's. */
export const stemKey = (generation: Owner, role: string): string =>
  `audio/${generation.account_id}/${generation.id}.${stemFile(role)}`;

/** The role of a stem's link name (`stem-drums.wav` -> drums), or undefined when it is not one. */
export function roleOfStemFile(name: string): string | undefined {
  return /^stem-([a-z]{1,16})\.wav$/.exec(name)?.[1];
}

/** Every blob key a generation's files could have without stems: what a failed save removes. */
export const allKeys = (generation: Owner): string[] => DOWNLOAD_KINDS.map((kind) => blobKey(generation, kind));

/**
 * The files of a rendered track, as the record lists them and as blobs to store (stems included). The formats
 * made later are listed with the keys they will be stored under, and stored only when first fetched.
 */
export function trackFiles(
  generation: Owner,
  track: RenderedTrack,
): { files: GenerationFiles; puts: { key: string; bytes: Uint8Array; contentType: string }[] } {
  const bytes: Partial<Record<DownloadKind, Uint8Array>> = { wav: track.wav, midi: track.midi, ...track.outputs };
  const files: GenerationFiles = { wav: blobKey(generation, 'wav'), midi: blobKey(generation, 'midi') };
  const puts: { key: string; bytes: Uint8Array; contentType: string }[] = [];
  for (const kind of LATER_FORMATS) files[kind] = blobKey(generation, kind);
  for (const kind of DOWNLOAD_KINDS) {
    const content = bytes[kind];
    if (!content) continue;
    files[kind] = blobKey(generation, kind);
    puts.push({ key: files[kind], bytes: content, contentType: DOWNLOADS[kind].contentType });
  }
  if (track.stems) {
    files.stems = {};
    for (const stem of track.stems) {
      const key = stemKey(generation, stem.role);
      files.stems[stem.role] = key;
      puts.push({ key, bytes: stem.wav, contentType: STEM_CONTENT_TYPE });
    }
  }
  return { files, puts };
}
