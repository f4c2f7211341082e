/**
 * The engine's errors. They know nothing of HTTP: the service maps them to statuses in one place.
 */
export class EngineError extends Error {
  override name = 'EngineError';
}

/**
 * A request the engine cannot honour, explained for the person who sent it: its message is the only text of
 * an engine error that may reach a client. Anything else a render throws is a RenderFailedError.
 */
export class RequestError extends EngineError {
  override name = 'RequestError';
}

/** The request named a style that presets/ does not have. */
export class UnknownStyleError extends RequestError {
  override name = 'UnknownStyleError' as const;
  constructor(
    readonly style: string,
    readonly allowed: readonly string[],
  ) {
    super(`Unknown style "${style}". Use one of: ${allowed.join(', ')}.`);
  }
}

/** Nothing would sound in the track: every part left out, or sections naming only parts it does not have. */
export class SilentTrackError extends RequestError {
  override name = 'SilentTrackError' as const;
  constructor(
    /** The request field to change: "exclude" (or the prompt's exclusions) or "sections". */
    readonly param: 'exclude' | 'sections',
    message: string,
  ) {
    super(message);
  }
}

/** A render thread died (crash, out of memory) while it held a task. The task can be retried. */
export class WorkerCrashedError extends EngineError {
  override name = 'WorkerCrashedError' as const;
  constructor(
    readonly exitCode: number | null,
    options?: ErrorOptions,
  ) {
    super(`The render worker stopped unexpectedly (exit code ${exitCode ?? 'none'}).`, options);
  }
}

/** The render was cancelled through its AbortSignal or because the pool is closing. */
export class RenderAbortedError extends EngineError {
  override name = 'RenderAbortedError' as const;
  constructor(options?: ErrorOptions) {
    super('The render was cancelled.', options);
  }
}

/** A preset file in presets/ does not match the schema. */
export class InvalidPresetError extends EngineError {
  override name = 'InvalidPresetError' as const;
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`Preset ${file} is invalid: ${problem}`);
  }
}

/** A part names an instrument the renderer cannot play (a preset or score out of step with PATCHES). */
export class UnknownInstrumentError extends EngineError {
  override name = 'UnknownInstrumentError' as const;
  constructor(
    readonly instrument: string,
    readonly role: string,
  ) {
    super(`No ${role === 'drums' ? 'drum kit' : 'instrument'} is called "${instrument}".`);
  }
}

/**
 * The render threw something not written for the caller (a bug, a native failure). Its message says only that
 * the render failed; what was thrown, with its stack, is the `cause`, for the log. Retrying will not help.
 */
export class RenderFailedError extends EngineError {
  override name = 'RenderFailedError' as const;
  constructor(
    /** The name of the error the worker threw, e.g. "TypeError". */
    readonly causeName: string,
    options?: ErrorOptions,
  ) {
    super('The render failed.', options);
  }
}

/** The request's lyrics have more lines than the track's sung sections can hold. */
export class LyricsTooLongError extends RequestError {
  override name = 'LyricsTooLongError' as const;
  constructor(
    /** Sung lines the lyrics need (a line too long for one phrase counts twice). */
    readonly lines: number,
    /** Sung lines this request's track has room for. */
    readonly linesThatFit: number,
    readonly duration: number,
  ) {
    const seconds = Math.round(duration * 10) / 10;
    super(
      linesThatFit === 0
        ? `A ${seconds}-second track of this style has no sung sections to hold lyrics. Ask for a longer duration or a song style (pop, rock, folk).`
        : `These lyrics need ${lines} sung lines, but a ${seconds}-second track of this style has room for ${linesThatFit}. ` +
            `Shorten them to ${linesThatFit} lines or ask for a longer duration.`,
    );
  }
}

/** The request's lyrics cannot be sung as written (nothing singable, too long, an unknown [Tag]). */
export class InvalidLyricsError extends RequestError {
  override name = 'InvalidLyricsError' as const;
  constructor(readonly problem: string) {
    super(problem);
  }
}
