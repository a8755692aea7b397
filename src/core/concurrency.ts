/**
 * Runs `work` over `items` with at most `limit` running at once; results keep the items' order.
 * When one item fails, no new item starts, and the first error is thrown once every item
 * already started has ended (so nothing keeps running behind the caller's back).
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
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length && failure === undefined) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw failure.error;
  return results;
}
