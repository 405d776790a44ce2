/**
 * Orders build ids (see build-id.ts): by version (major, minor, patch; a pre-release before its
 * release), then by build time. Negative when `a` is older than `b`, 0 when the same, positive
 * when newer. An id that is missing or not of that form (a worker from before build ids) is
 * older than every real one, so a newer engram always takes over from it.
 */
export function compareBuilds(a: string | undefined, b: string | undefined): number {
  const x = parseBuild(a);
  const y = parseBuild(b);
  if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
  for (let i = 0; i < 3; i++) {
    if (x.numbers[i] !== y.numbers[i]) return x.numbers[i]! - y.numbers[i]!;
  }
  if (x.pre !== y.pre) {
    if (x.pre === '') return 1;
    if (y.pre === '') return -1;
    return x.pre < y.pre ? -1 : 1;
  }
  return x.stamp - y.stamp;
}

/** Whether a worker of build `worker` should hand over to one of build `mine`. */
export function isOlderBuild(worker: string | undefined, mine: string): boolean {
  return compareBuilds(worker, mine) < 0;
}

function parseBuild(id: string | undefined): { numbers: number[]; pre: string; stamp: number } | undefined {
  const match = id === undefined ? null : /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?\+(\d+)$/.exec(id);
  if (!match) return undefined;
  return { numbers: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] ?? '', stamp: Number(match[5]) };
}
