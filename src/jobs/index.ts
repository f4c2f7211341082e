export type { JobQueue, LiveState } from './types.ts';
export { createJobQueue, type JobQueueHandle, type JobQueueOptions, type RenderPoolLike } from './job-queue.ts';
export { loadedSpeed } from './render-speed.ts';
