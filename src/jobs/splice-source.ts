/**
 * The source audio a derived task's render splices into (extend, redo a section): read at each attempt from the
 * blob store, because the pool transfers the bytes to its thread (a retried render needs them again).
 */
import type { SpliceSource, SungSource } from '../../engine/index.ts';
import { playedOf } from '../domain/generations/derive.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { BlobNotFoundError } from '../store/errors.ts';
import type { Repository } from '../store/repository.ts';
import type { Generation } from '../domain/model.ts';

/** The source is gone (deleted between the request and the render) or lost its audio: the task cannot be made. */
export class SourceUnavailableError extends Error {
  override name = 'SourceUnavailableError';
  constructor(readonly sourceId: string) {
    super(
      `The generation this one was made from (${sourceId}) was deleted, or its audio is gone, before this render started, so there is nothing to splice into. Make it again from a generation you keep.`,
    );
  }
}

export async function spliceSourceOf(
  generation: Generation,
  repository: Repository,
  blobs: BlobStore,
): Promise<SpliceSource | undefined> {
  const from = generation.source;
  if (!from) return undefined;
  const source = await repository.getGeneration(generation.account_id, from.id);
  const played = source?.status === 'completed' ? playedOf(source) : undefined;
  const key = source?.files?.wav;
  if (!played || typeof key !== 'string') throw new SourceUnavailableError(from.id);
  let wav: Uint8Array;
  try {
    wav = await readWhole(await blobs.open(key));
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new SourceUnavailableError(from.id);
    throw error;
  }
  const sung = sungOf(source ?? {});
  return from.operation === 'extend'
    ? { kind: 'extend', wav, sections: played.plan, sung }
    : { kind: 'remix', wav, sections: played.plan, section: from.section ?? 0, sung };
}

/** What the source's metadata says it sang: its lines stay the derived track's outside the changed region. */
export function sungOf(source: Partial<Pick<Generation, 'metadata'>>): SungSource {
  const m = source.metadata;
  const lines = Array.isArray(m?.lyrics_timing) ? (m.lyrics_timing as SungSource['lines']) : [];
  const voice = m?.voice === 'female' || m?.voice === 'male' ? m.voice : null;
  const lyricsSource = m?.lyrics_source === 'given' || m?.lyrics_source === 'written' ? m.lyrics_source : null;
  return { lines, voice, lyricsSource };
}

/** The stream's bytes in one buffer of their own (it is transferred to a render thread whole). */
async function readWhole(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.byteLength;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
