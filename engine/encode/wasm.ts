/**
 * Loads the encoders' emscripten builds (CommonJS) once per thread, without the network and without leaving
 * their process hooks behind. libflacjs prefers fetch() for its .wasm whenever Node has fetch (Node ≥ 18),
 * which fails offline and on a file path, so fetch is hidden while it loads; it then reads the file from disk.
 * The opus build adds 'uncaughtException' and 'unhandledRejection' handlers that would turn any stray
 * rejection into an abort; they are removed again, so the thread keeps Node's own behaviour.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Listener = (...args: unknown[]) => void;
const HOOKED = ['uncaughtException', 'unhandledRejection'] as const;
const listeners = (event: (typeof HOOKED)[number]): Listener[] =>
  process.listeners(event as 'uncaughtException') as Listener[];

/** require() of a module that may install process hooks or call fetch at load time. */
export function requireQuietly<T>(id: string): T {
  const before = new Map(HOOKED.map((event) => [event, new Set(listeners(event))]));
  const fetch = globalThis.fetch;
  Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return require(id) as T;
  } finally {
    globalThis.fetch = fetch;
    for (const [event, had] of before) {
      for (const listener of listeners(event)) if (!had.has(listener)) process.removeListener(event, listener);
    }
  }
}

/** Resolves once an emscripten module has compiled its WebAssembly (it loads asynchronously). */
export function whenReady(isReady: () => boolean, onReady: (callback: () => void) => void): Promise<void> {
  return isReady() ? Promise.resolve() : new Promise((resolve) => onReady(resolve));
}

export const resolveModule = (id: string): string => require.resolve(id);
