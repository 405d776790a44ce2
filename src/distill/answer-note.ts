/**
 * What the answer's parser changed on its way to a result, so the distill-completed event can
 * record it beside the raw answer: nothing is changed silently.
 */
export type AnswerNoteCode =
  /** The JSON was inside a ```json fence (`fence`) or surrounded by prose (`braces`). */
  | 'unwrapped'
  /** More than 3 candidates: the first 3 were kept (the prompt asks for the most lasting first). */
  | 'candidates-dropped'
  /** Lines addressing the model, prompt or tool-call markup, or invisible characters were removed. */
  | 'injection-removed'
  /** A secret-looking value was replaced by a redaction marker. */
  | 'redacted'
  /** Text longer than its cap was cut. */
  | 'truncated'
  /** A candidate left with no name, description or body once sanitised was dropped. */
  | 'candidate-dropped'
  /** An unknown tier was dropped (the type's default applies). */
  | 'tier-unknown'
  /** An unknown destination became `memory`, the safe default. */
  | 'destination-unknown'
  /** A graph entity of an unknown type, blank, repeated or beyond the cap was dropped. */
  | 'entity-dropped'
  /** A relation of an unknown name, between entities the graph does not list, or beyond the cap was dropped. */
  | 'relation-dropped'
  /** A blank, repeated or surplus `contradicts` entry was dropped. */
  | 'contradicts-dropped';

export interface AnswerNote {
  code: AnswerNoteCode;
  /** Where, as a path into the answer: `candidates[1].body`, `episode.graph`. */
  at: string;
  detail?: string;
}
