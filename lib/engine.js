// Tunesmith's engine as a library for plain JavaScript: `import { renderTrack } from 'tunesmith/engine'`.
// The sources are TypeScript, run as they are through tsx (there is no build step), and Node cannot import .ts by
// itself. tsx's tsImport loads the library and what it imports through tsx without registering tsx for the whole
// process, so the consumer's own modules are left as Node loads them. Types: engine.d.ts beside this file.
import { tsImport } from 'tsx/esm/api';

const library = await tsImport('../src/library/engine.ts', import.meta.url);

export const { renderTrack, interpret, listStyles, ValidationError, EngineError } = library;
