/** Keys a cache holds before it starts over: enough for every session of a long history. */
const KEPT = 100_000;

/**
 * `prefix + id`, made once per id. A key made afresh at every event is a new concatenated
 * string that each Map lookup must first copy into one piece and hash again: across the lanes
 * of a rebuild that was a large part of folding. The cache only ever returns what
 * `prefix + id` would, so the rows are the same.
 */
export function keyCache(prefix: string): (id: string) => string {
  let keys = new Map<string, string>();
  return (id) => {
    let key = keys.get(id);
    if (key === undefined) {
      if (keys.size >= KEPT) keys = new Map();
      key = prefix + id;
      keys.set(id, key);
    }
    return key;
  };
}

/**
 * `prefix + a + separator + b`, made once per pair: for keys of two parts (a project and a tool
 * name), each looked up without concatenating them first.
 */
export function keyPairCache(prefix: string, separator: string): (a: string, b: string) => string {
  let byFirst = new Map<string, (b: string) => string>();
  return (a, b) => {
    let keyOf = byFirst.get(a);
    if (keyOf === undefined) {
      if (byFirst.size >= KEPT) byFirst = new Map();
      keyOf = keyCache(prefix + a + separator);
      byFirst.set(a, keyOf);
    }
    return keyOf(b);
  };
}
