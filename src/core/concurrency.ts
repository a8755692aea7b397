/**
 * Runs `work` over `items` with at most `limit` running at once; results keep the items' order.
 *
 * @example
 * const pages = await mapConcurrent(urls, 4, (url) => fetch(url).then((r) => r.text()));
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}
