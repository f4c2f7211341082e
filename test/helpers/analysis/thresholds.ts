/**
 * Calibrated thresholds for judging rendered tracks, with where each number comes from.
 */

/**
 * Percussive hits per second (analysis/onsets.ts percussiveOnsetRate) above which a track is taken
 * to have drums. Calibration on synthetic signals (test/analysis.test.ts):
 *   - silence, a kick-only loop, a soft sine melody at 8 notes/s: 0/s;
 *   - the sparsest groove we accept as "drums" — one off-beat hat per beat at 90 bpm: 1.5/s;
 *     a 120 bpm loop: 2/s; real grooves with 8th/16th hats, snares and claps: more.
 * 1/s sits between the two. Known blind spot: timbres with a noise-burst attack (sox's
 * Karplus–Strong pluck measures ~1 hit per note) count as percussive, which is why the engine's
 * "no drums" test also compares against the same prompt with drums.
 */
export const DRUMLESS_MAX_PERCUSSIVE_RATE = 1.0;
