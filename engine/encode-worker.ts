/** The encode thread's entry (engine/encode-thread.ts): MP3, Opus and FLAC from a stored WAV, one at a time. */
import { serveEncodes } from './encode-thread.ts';

serveEncodes();
