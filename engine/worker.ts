/**
 * The render worker's entry: one render at a time (Tone.js keeps a module-global context, so a thread is
 * the unit of concurrency). It talks to the pool only through engine/pool.ts's channel; every command
 * gets exactly one reply with its jobId, whatever happens.
 */
import { serializeError, type RenderCommand, type WorkerMessage } from './protocol.ts';
import { renderTrack } from './track.ts';
import { workerChannel } from './pool.ts';

const channel = workerChannel();

async function handle(command: RenderCommand): Promise<void> {
  try {
    const track = await renderTrack(command.request, {
      onProgress: (fraction) => channel.post({ type: 'progress', jobId: command.jobId, fraction }),
    });
    channel.post({ type: 'done', jobId: command.jobId, track }, [track.wav.buffer as ArrayBuffer, track.midi.buffer as ArrayBuffer]);
  } catch (error) {
    channel.post({ type: 'failed', jobId: command.jobId, error: serializeError(error) });
  }
}

channel.onCommand((command) => void handle(command));
channel.post({ type: 'ready' } satisfies WorkerMessage);
