/** Small readers for LRC and WebVTT as players read them: enough to check the files the API serves. */

export interface TimedLine {
  start: number;
  text: string;
}

/** LRC's timed lines ([mm:ss.xx]text), without the empty ones that clear the display and without ID tags. */
export function parseLrc(text: string): { tags: Record<string, string>; lines: TimedLine[] } {
  const tags: Record<string, string> = {};
  const lines: TimedLine[] = [];
  for (const line of text.split('\n')) {
    const timed = /^\[(\d+):(\d{2})\.(\d{2})\](.*)$/.exec(line);
    if (timed) {
      if (timed[4]!.trim() !== '')
        lines.push({ start: Number(timed[1]) * 60 + Number(timed[2]) + Number(timed[3]) / 100, text: timed[4]! });
      continue;
    }
    const tag = /^\[([a-z]+):(.*)\]$/.exec(line);
    if (tag) tags[tag[1]!] = tag[2]!;
  }
  return { tags, lines };
}

export interface Cue {
  start: number;
  end: number;
  /** The cue text without inline timestamps or escapes. */
  text: string;
  /** Inline timestamps in order. */
  stamps: number[];
}

const seconds = (stamp: string): number => {
  const [h, m, s] = stamp.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
};

/** WebVTT cues (hh:mm:ss.ttt timings); throws unless the file starts with the WEBVTT signature. */
export function parseVtt(text: string): Cue[] {
  if (!text.startsWith('WEBVTT')) throw new Error('not a WebVTT file');
  const cues: Cue[] = [];
  for (const block of text.split(/\n\n+/).slice(1)) {
    const lines = block.split('\n').filter((line) => line !== '');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing === -1) continue;
    const [, start, end] = /^(\d{2}:\d{2}:\d{2}\.\d{3}) --> (\d{2}:\d{2}:\d{2}\.\d{3})/.exec(lines[timing]!) ?? [];
    if (!start || !end) throw new Error(`bad cue timing: ${lines[timing]}`);
    const body = lines.slice(timing + 1).join('\n');
    const stamps = [...body.matchAll(/<(\d{2}:\d{2}:\d{2}\.\d{3})>/g)].map((m) => seconds(m[1]!));
    const plain = body
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    cues.push({ start: seconds(start), end: seconds(end), text: plain, stamps });
  }
  return cues;
}
