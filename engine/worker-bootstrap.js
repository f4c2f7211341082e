// A render worker's first module. Workers do not inherit the parent's `--import tsx` loader on Node 20,
// so this plain-JS file registers tsx in the worker and then loads the TypeScript entry named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
