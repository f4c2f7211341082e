/**
 * The render worker's entry: one render at a time (Tone.js keeps a module-global context, so a thread is
 * the unit of concurrency). It talks to the pool only through engine/pool.ts's channel.
 */
import { renderTrack } from './track.ts';
import { serveRenders } from './pool.ts';

serveRenders(renderTrack);
