/**
 * Calibrated thresholds for judging rendered tracks, with where each number comes from.
 */

/**
 * Percussive hits per second (analysis/onsets.ts percussiveOnsetRate: noise-like onsets of the
 * 5–16 kHz band) above which a track is taken to have drums.
 *
 * Calibration on synthetic signals (test/analysis.test.ts): silence, a kick-only loop, soft sine and
 * bright band-limited sawtooth melodies at 8 notes/s: 0/s; the sparsest groove we accept as drums — one off-beat
 * hat per beat at 90 bpm — 1.5/s; a 120 bpm loop 2/s.
 * On engine renders (30 s, seed 4242, 2026-11-22): "deep house groove" 3.80/s, "driving rock anthem"
 * 3.57/s, "upbeat pop song" 2.33/s; the same prompts "with no drums"/"without drums" 0.00/s, and
 * "happy upbeat piano" (FM piano with a hammer-noise click) 0.00/s.
 * 1/s sits between the two groups.
 *
 * Known blind spots: drums with no energy above 5 kHz are not counted — the engine's lo-fi kit under
 * the lo-fi master low-pass measures 0/s even with drums — and noise-excited plucks (sox's
 * Karplus–Strong pluck) count about one hit per two notes. So the "no drums" test uses a bright
 * genre (pop) and also compares against the same prompt with drums.
 */
export const DRUMLESS_MAX_PERCUSSIVE_RATE = 1.0;
