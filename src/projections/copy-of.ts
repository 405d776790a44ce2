/**
 * A copy of a map, in its order. `new Map(map)` walks it with an iterator that makes an entry
 * array per key: for a row copied at every event of a rebuild, that was most of its garbage.
 */
export function copyOf<K, V>(map: ReadonlyMap<K, V> | undefined): Map<K, V> {
  const copy = new Map<K, V>();
  map?.forEach((value, key) => copy.set(key, value));
  return copy;
}
