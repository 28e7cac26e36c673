/**
 * Edits between two words: insertions, deletions, substitutions, and swaps of two neighbours
 * (the usual typing slips: `chek`, `doctr`, `preveiw` are each one edit away).
 */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The name a mistyped `word` most likely meant, for a "did you mean" hint: the nearest of
 * `names`, case aside, at most one edit away for every three letters of the name (at least
 * one), so that a short word is not matched to anything; `undefined` when none is that near.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed, name.toLowerCase());
    const allowed = Math.max(1, Math.floor(name.length / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best?.name;
}
