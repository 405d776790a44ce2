/** A memory recall can show: what the lexical index keeps of it, its file made absolute. */
export interface MemoryCard {
  readonly id: string;
  /** Absolute path of the memory file. */
  readonly file: string;
  readonly name: string;
  readonly description: string;
  readonly confidence: number;
  readonly lastReinforced: string;
  readonly halfLifeDays: number | null;
}

/** A memory line of an index, its file made absolute under its directory. */
export function cardOf(memory: Omit<MemoryCard, 'file'> & { file: string }, dir: string): MemoryCard {
  const { id, name, description, confidence, lastReinforced, halfLifeDays } = memory;
  return { id, file: `${dir}/${memory.file}`, name, description, confidence, lastReinforced, halfLifeDays };
}
