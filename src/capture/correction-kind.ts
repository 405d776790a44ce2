/** Which cue of the correction detector fired (see correction-detector.ts). */
export type CorrectionKind =
  | 'told-you' // "I told you to…", "like I said, …", "how many times…? …"
  | 'wrong' // "that's wrong, …", "why do you keep…? …"
  | 'no' // "no, use …", "nope. …", "actually, we …"
  | 'remember' // "remember that…", "don't forget to…", "…, remember that"
  | 'from-now-on' // "from now on…", "going forward…", "…in the future", "rule: …"
  | 'always-never' // "always…", "never…", "don't … again", "we never…", "whenever …, …"
  | 'stop' // "stop adding…"
  | 'preference' // "I prefer…", "I'd rather…", "I want you to always…"
  | 'instead' // "use X, not Y" on its own, "don't use X, use Y"
  | 'house-rule' // "this repo uses Y, not X", "we don't do X", "in this codebase we use Y"
  | 'learned'; // no cue the rules read: the learned classifier's (correction-classifier.ts), measured only
