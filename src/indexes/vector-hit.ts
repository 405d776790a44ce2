/** A memory a vector search found, and how close it is to the query. */
export interface VectorHit {
  id: string;
  /** Cosine similarity of the query and the memory's text, in [-1, 1]. */
  cosine: number;
}
