/** `1 event`, `3 events`: a count and its noun (a regular plural). */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
