#!/usr/bin/env node
// The published bin: register tsx so the TypeScript sources run as they are, then hand over to the CLI. `serve` and
// `worker` first replace the process with one that has glibc's malloc settings (src/memory-settings.ts), before
// the sources load.
import { register } from 'tsx/esm/api';

register();
await import('../src/memory-settings.ts');
await import('../src/cli.ts');
