#!/usr/bin/env node
// The published bin: register tsx so the TypeScript sources run as they are, then hand over to the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
