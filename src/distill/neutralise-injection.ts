/**
 * Keeps instructions aimed at a model out of memory text. A distilled memory is loaded into every
 * later session of its project, so a transcript that said "ignore previous instructions" (a web
 * page the agent read, a poisoned README) must not travel through the LLM's answer into a file a
 * future session trusts. Memories legitimately hold instructions for the *work* ("always run the
 * migrations first"); what goes is text that addresses the model itself, overrides its
 * instructions, or imitates the markup of prompts and tool calls. Such a line is removed whole,
 * and the rule that matched is reported so the caller can record it.
 */

export type InjectionRule = 'override' | 'role-change' | 'address-model' | 'role-markup' | 'tool-markup' | 'invisible';

interface LineRule {
  rule: Exclude<InjectionRule, 'invisible'>;
  pattern: RegExp;
}

// Matched against a normalised copy of each line (NFKC, lower case, single spaces), so
// full-width letters or doubled spaces do not slip past.
const LINE_RULES: readonly LineRule[] = [
  {
    rule: 'override',
    pattern:
      /\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(previous|prior|above|earlier|preceding|your|system|original|safety|initial)\b.{0,40}\b(instructions?|prompts?|directions|directives?|guidelines|guardrails|programming|rules)\b/,
  },
  { rule: 'override', pattern: /\bforget (everything|all) (you|that|above|before|so far)\b/ },
  { rule: 'override', pattern: /\b(new|updated|real|actual|hidden|secret|true|override)\s+(system\s+)?(instructions?|prompt|directives?|orders)\s*:/ },
  { rule: 'override', pattern: /\b(do not|don't|never) (tell|inform|alert|mention (this )?to) the user\b/ },
  { rule: 'role-change', pattern: /\byou (must|will|shall) now\b/ },
  { rule: 'role-change', pattern: /\byou are now\b/ },
  { rule: 'role-change', pattern: /(\byou (will |must |should )?|^\W*)(act|behave|respond) as (if|though|a|an|my)\b/ },
  { rule: 'role-change', pattern: /\b(pretend|imagine) (to be|you are|that you are)\b/ },
  { rule: 'role-change', pattern: /\b(jailbreak|jailbroken|developer mode|do anything now|dan mode)\b/ },
  { rule: 'address-model', pattern: /\b(dear|attention|note to|message (to|for)|hey|hi|hello)[ ,]+(the )?(ai|assistant|claude|llm|language model|model|agent)\b/ },
  { rule: 'address-model', pattern: /^\W*(claude|assistant|ai|llm|model)\s*[:,]\s/ },
  { rule: 'address-model', pattern: /\bas an ai( language model| assistant)?\b/ },
  { rule: 'address-model', pattern: /\b(future|next|later) (sessions?|instances?|assistants?|agents?|models?) (of you )?(must|should|shall|will) (ignore|disregard|obey|always|never)\b/ },
  { rule: 'role-markup', pattern: /<\/?\s*(system|system[-_ ]?(reminder|prompt|message)|instructions?|developer|assistant|human|im_start|im_end|endoftext)\b[^>]*>/ },
  { rule: 'role-markup', pattern: /<\|[a-z_]+\|>/ },
  { rule: 'role-markup', pattern: /\[\/?(inst|sys)\]|<<\/?sys>>/ },
  { rule: 'role-markup', pattern: /^\W*(human|assistant|system|developer)\s*:/ },
  { rule: 'tool-markup', pattern: /<\/?\s*(function_calls|function_results|invoke|parameter|tool_use|tool_call|tool_calls|tool_result|antml:[a-z_]+)\b/ },
  { rule: 'tool-markup', pattern: /"type"\s*:\s*"(tool_use|tool_call|function_call|function)"/ },
];

// Zero-width and direction controls (they hide or reorder text on screen), Unicode tag
// characters (they smuggle ASCII past a human reader) and C0/C1 controls other than tab and
// newline.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;

export interface NeutralisedText {
  text: string;
  /** The rules that removed something, each once, in the order above. */
  rules: InjectionRule[];
  /** How many lines were removed. */
  linesRemoved: number;
}

export function neutraliseInjection(input: string): NeutralisedText {
  const found = new Set<InjectionRule>();
  const unified = input.replace(/\r\n?/g, '\n');
  const visible = unified.replace(INVISIBLE, '');
  if (visible !== unified) found.add('invisible');
  const lines = visible.split('\n');
  const removed = lines.map((line) => matchLine(line));
  // An instruction broken over two lines ("ignore all previous\ninstructions") goes too, both
  // lines of it.
  for (let i = 0; i + 1 < lines.length; i++) {
    if (removed[i] || removed[i + 1]) continue;
    const rule = matchLine(`${lines[i]} ${lines[i + 1]}`);
    if (rule) removed[i] = removed[i + 1] = rule;
  }
  const kept: string[] = [];
  let linesRemoved = 0;
  lines.forEach((line, i) => {
    const rule = removed[i];
    if (rule) {
      found.add(rule);
      linesRemoved++;
    } else kept.push(line);
  });
  const text = linesRemoved > 0 ? collapseBlankRuns(kept).join('\n').trim() : visible;
  const order: InjectionRule[] = ['invisible', 'override', 'role-change', 'address-model', 'role-markup', 'tool-markup'];
  return { text, rules: order.filter((rule) => found.has(rule)), linesRemoved };
}

function matchLine(line: string): LineRule['rule'] | undefined {
  const normal = line.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
  for (const { rule, pattern } of LINE_RULES) if (pattern.test(normal)) return rule;
  return undefined;
}

// A removed line between two paragraphs would otherwise leave a gap of blank lines behind.
function collapseBlankRuns(lines: string[]): string[] {
  return lines.filter((line, i) => line.trim() !== '' || i === 0 || lines[i - 1]!.trim() !== '');
}
