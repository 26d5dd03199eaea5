export interface Ranked {
  itemId: string;
  itemType: string;
}

export interface Fused {
  itemId: string;
  itemType: 'file' | 'folder';
  score: number;
}

/** The usual constant of reciprocal rank fusion: damps the difference between the first few ranks. */
const K = 60;

/**
 * Reciprocal rank fusion: each list adds 1 / (K + rank) for the items it holds, so items that
 * both the keyword and the vector retrieval rank well come first, without comparing their scores.
 */
export function fuse(lists: { items: Ranked[]; weight: number }[]): Fused[] {
  const scores = new Map<string, Fused>();
  for (const { items, weight } of lists) {
    items.forEach((item, rank) => {
      const entry = scores.get(item.itemId) ?? { itemId: item.itemId, itemType: item.itemType === 'folder' ? 'folder' : 'file', score: 0 };
      entry.score += weight / (K + rank + 1);
      scores.set(item.itemId, entry);
    });
  }
  return [...scores.values()].sort((a, b) => b.score - a.score);
}
