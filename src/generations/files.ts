/**
 * The files a finished generation has in the blob store: one per format, named in its record's `files` by the
 * format's name and stored under a key of the generation's own, so a new format is a new row here.
 */
import type { Generation } from '../store/types.ts';

export interface FileFormat {
  /** The file name's extension (and the download link's). */
  extension: string;
  contentType: string;
}

export const FILE_FORMATS = {
  wav: { extension: 'wav', contentType: 'audio/wav' },
  midi: { extension: 'mid', contentType: 'audio/midi' },
} as const satisfies Record<string, FileFormat>;

export type FormatName = keyof typeof FILE_FORMATS;

/** The blob key of a generation's file in a format: the path the data dir has always kept it at. */
export const blobKey = (generation: Pick<Generation, 'id' | 'account_id'>, format: FormatName): string =>
  `audio/${generation.account_id}/${generation.id}.${FILE_FORMATS[format].extension}`;

/** The format whose download name ends in `extension` ("mid" is midi). */
export function formatOfExtension(extension: string): FormatName | undefined {
  return (Object.keys(FILE_FORMATS) as FormatName[]).find((name) => FILE_FORMATS[name].extension === extension);
}
