/**
 * A look-ahead true-peak limiter. For every sample it knows the gain that would keep the interpolated peak under
 * the ceiling; the applied gain is that requirement's minimum over the next LOOKAHEAD samples, released slowly,
 * then averaged over LOOKAHEAD samples. The average of minima that all include a peak's position cannot exceed
 * the gain that peak needs, so peaks are caught while the gain moves smoothly (no clicks, no distortion spikes).
 */
import { truePeakNeed } from './true-peak.ts';
import { free } from '../free.ts';

/**
 * Applies `gain` to the stereo signal in place and limits its true peak to `ceiling` (linear). `gains`, when
 * given, receives the total gain applied to each frame (so stems can follow the mix exactly).
 */
export function limitTruePeak(
  left: Float32Array,
  right: Float32Array,
  ceiling: number,
  sampleRate: number,
  gain = 1,
  gains: Float32Array | null = null,
): void {
  const n = left.length;
  const lookahead = Math.max(1, Math.round(0.002 * sampleRate));
  const release = 1 - Math.exp(-1 / (0.08 * sampleRate));
  const need = truePeakNeed(left, right, ceiling, gain);
  let any = false;
  for (let i = 0; i < n && !any; i++) any = (need[i] ?? 0) < 1;
  if (!any) {
    free(need);
    gains?.fill(gain);
    if (gain !== 1)
      for (let i = 0; i < n; i++) {
        left[i] = (left[i] ?? 0) * gain;
        right[i] = (right[i] ?? 0) * gain;
      }
    return;
  }

  // Forward sliding minimum over [i, i + lookahead] with a monotonic deque (a ring: it never holds more than
  // lookahead + 1 indices), release smoothing, then a moving average over the last lookahead + 1 gains (values
  // before the start count as 1). Rings instead of full-length arrays keep memory flat for long tracks. The
  // rings' positions wrap by comparison, not by `%`: an integer division per access cost more than the rest.
  const ringSize = lookahead + 2;
  const deque = new Int32Array(ringSize);
  // head: the oldest index's slot; tail: the slot after the newest; size: how many indices the deque holds.
  let head = 0,
    tail = 0,
    size = 0;
  let next = 0;
  let released = 1;
  const window = lookahead + 1;
  const history = new Float64Array(window).fill(1);
  let slot = 0;
  let sum = window;
  for (let i = 0; i < n; i++) {
    const reach = Math.min(n - 1, i + lookahead);
    for (; next <= reach; next++) {
      const value = need[next] ?? 0;
      while (size > 0) {
        const last = tail === 0 ? ringSize - 1 : tail - 1;
        if ((need[deque[last] ?? 0] ?? 0) < value) break;
        tail = last;
        size--;
      }
      deque[tail] = next;
      tail = tail + 1 === ringSize ? 0 : tail + 1;
      size++;
    }
    while ((deque[head] ?? 0) < i) {
      head = head + 1 === ringSize ? 0 : head + 1;
      size--;
    }
    const minimum = need[deque[head] ?? 0] ?? 0;
    released = Math.min(minimum, released + (1 - released) * release);
    sum += released - (history[slot] ?? 0);
    history[slot] = released;
    slot = slot + 1 === window ? 0 : slot + 1;
    const g = (sum / window) * gain;
    if (gains) gains[i] = g;
    left[i] = (left[i] ?? 0) * g;
    right[i] = (right[i] ?? 0) * g;
  }
  free(need);
}
