/** The engine renders and encodes at CD rate; every buffer length is computed from this. */
export const SAMPLE_RATE = 44100;
