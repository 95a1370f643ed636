/**
 * The parts [start, end) of one file (bytes) or chapter (segment numbers) a session has been served,
 * kept sorted and merged, so a part served again (a seek back, a player re-reading) is not counted
 * twice. At most `maxParts` are kept: past that the two closest merge, so the gap between them
 * counts as served; memory stays bounded and the error only ever lowers what is counted later.
 */
export class Coverage {
  readonly #parts: [number, number][] = [];
  /** Units covered in all. */
  total = 0;

  constructor(private readonly maxParts = 64) {}

  /** How much of [start, end) has not been served yet. */
  fresh(start: number, end: number): number {
    let fresh = Math.max(0, end - start);
    for (const [s, e] of this.#parts) {
      if (s >= end) break;
      if (e > start) fresh -= Math.min(e, end) - Math.max(s, start);
    }
    return fresh;
  }

  add(start: number, end: number): void {
    if (end <= start) return;
    const parts = this.#parts;
    let i = 0;
    while (i < parts.length && parts[i][1] < start) i++;
    let [s, e] = [start, end];
    let j = i;
    while (j < parts.length && parts[j][0] <= e) {
      s = Math.min(s, parts[j][0]);
      e = Math.max(e, parts[j][1]);
      this.total -= parts[j][1] - parts[j][0];
      j++;
    }
    parts.splice(i, j - i, [s, e]);
    this.total += e - s;
    if (parts.length > this.maxParts) this.#mergeClosest();
  }

  #mergeClosest(): void {
    const parts = this.#parts;
    let best = 1;
    for (let k = 2; k < parts.length; k++) {
      if (parts[k][0] - parts[k - 1][1] < parts[best][0] - parts[best - 1][1]) best = k;
    }
    this.total += parts[best][0] - parts[best - 1][1];
    parts.splice(best - 1, 2, [parts[best - 1][0], parts[best][1]]);
  }
}
