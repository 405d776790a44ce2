/**
 * The correction detector's cue tables (./correction-detector.ts reads them): words and phrases
 * (./words.ts: `a|b` alternatives, `?` optional, `+` joins words into one option) that open a
 * correction, say a rule is to be kept, or make a sentence a question, a report or a moment's
 * instruction instead. Plain data: nothing here is compiled when a hook process loads it.
 */
import { phrases } from './words.js';

/** Text that Claude Code or a tool produced rather than the person: never a correction. */
export const MACHINE_TEXT = [
  'this session is being continued from a previous conversation', 'caveat: the messages below', '[request interrupted',
  '<task-notification>', '<command-name>', '<command-message>', '<local-command-',
];

/** Words that open a sentence without changing what it says. */
export const FILLER_WORDS = new Set([
  'ok', 'okay', 'also', 'and', 'but', 'oh', 'btw', 'hey', 'so', 'well', 'ps', 'p.s', 'claude', 'please', 'pls', 'plz',
  'seriously', 'ugh', 'hmm', 'look', 'listen', 'wait', 'again', 'guys', 'sorry', 'fyi',
]);
export const FILLER_PHRASES = phrases('one more thing', 'for the record', "i'm|i+am pretty|quite|fairly sure ?that");
export const FILLER_MARKS = new Set([',', ':', ';', '!', '?', '.', '\u2014', '\u2013', '-']);

export const POLITE = phrases('can|could|would|will you ?please|kindly');

/** Sentences that only wonder: what follows is not a rule. */
export const HYPOTHETICAL = phrases(
  'what if', 'suppose', 'supposing', 'imagine', 'assuming', 'maybe', 'perhaps', 'i wonder', 'i think', 'i guess',
  "i'm not sure", 'not sure', 'do you think', 'would it', 'should we|i', 'is it', 'are we', 'can|could we', 'if',
  'whether', 'unless', 'in case',
);

/** A condition before the rule: "when you write tests, always …". */
export const CONDITION = phrases('if', 'when', 'whenever', 'every|each time', 'once', 'before', 'after', 'while', 'unless');
/** Conditions that already say "always": "whenever you add an env var, document it". */
export const HABIT = new Set(['whenever', 'every', 'each', 'any']);
/** "when I say bump version, …": the person defines what their words mean from now on. */
export const WHEN_I_SAY = phrases('when|whenever|if|every+time i say|ask|type|write', 'when|whenever|if|every+time i tell you');

export const TOLD_YOU = phrases(
  "i|i've|i+have ?already|just|literally told you|u|ya",
  'i ?already|just said ?it|this', 'like|as i ?already said', "i've|i+have ?already said ?it|this",
  'how many times do i have|need to tell|ask|say ?you ?this', 'what did i ?just tell|ask you',
  'you keep|always forget|forgetting', 'you forgot again',
);
/** "I asked you …" only before "not to" or "to always/never": otherwise it is about a task. */
export const ASKED_YOU = phrases('i ?already|specifically|explicitly asked you');
export const ASKED_NEXT = phrases('not to', 'to always|never');
/** After "I said that": words that make "that" the thing said, with no lesson after it. */
export const REPORTED = new Set(['in', 'on', 'at', 'to', 'already', 'before', 'earlier', 'yesterday', 'twice', 'last', 'above', 'here', 'there', 'when', 'because']);
export const TOLD_AGAIN = new Set(['this', 'so', 'already', 'before', 'twice', 'earlier', 'yesterday']);
export const TOLD_AGAIN_PHRASES = phrases('many|multiple times', 'a dozen|hundred|thousand|million times');

export const WRONG = phrases(
  "that's|that+is|that+was|this's|this+is|it's|it+is|you're|you+are ?still|just|completely|totally|all|so|plain|dead wrong|incorrect",
  "that's|thats|that+is|that+was|this's|this+is|it's|it+is|you're|you+are ?still|just|completely|totally|all|so|plain|dead not right|correct",
  "that's|that+is|that+was|this's|this+is|it's|it+is|you're|you+are ?still|just|completely|totally|all|so|plain|dead not what i asked|said|wanted|meant",
  "that's|that+is|that+was|this's|this+is|it's|it+is|you're|you+are ?still|just|completely|totally|all|so|plain|dead not how we|i do it|this|things ?here",
  'wrong',
  // "That doesn't work, use async/await": present tense, a property of the way, not one failed run.
  "that|this|it doesn't|does+not work ?here|in+this+repo",
);

/** A complaint that the agent keeps doing something: the next sentence may say what to do instead. */
export const WHY_AGAIN = phrases('why do|did|are|would|the+hell+do|on+earth+do you keep|always|still|again');

/** "no" opens a correction only when punctuated or addressed: "no idea" and "no dialog" do not. */
export const NO = phrases('no', 'nope', 'nah', 'not quite', 'not like that', 'actually');
export const NO_ADDRESSED = phrases(
  'i', 'we', 'you', 'use', "don't", 'dont', 'do not', 'this repo|project|codebase', 'in this', 'here', 'never', 'always', "it's", 'its', "that's", 'please', 'just', 'stop',
  'remember', 'not', 'it should',
);
export const NO_MARKS = new Set([',', '.', '!', ':', ';', '\u2014', '\u2013', '-']);

/** Strong: the words themselves say the rule is to be kept. */
export const FROM_NOW_ON = phrases(
  'from now on', 'from here on ?out', 'going|moving forward', 'henceforth', 'hereafter', 'for future reference|sessions',
  'in future sessions', 'for all future', '?new|house|team|general|project rule|convention :',
  'à partir de maintenant', 'dorénavant', 'désormais', 'de ahora en adelante', 'a partir de ahora', 'desde ahora',
  'ab jetzt', 'von nun an', 'ab sofort', "d'ora in poi", 'a partir de agora', 'daqui para frente',
);
/** Weak: "in the future, …" is a rule only when an order follows. */
export const IN_FUTURE = phrases('in ?the future', '?the next time');

export const REMEMBER = phrases(
  'remember', "don't|do+not|never forget", 'keep|bear in mind', 'note for ?the future', 'memorize',
  'add|save|put|store|write ?this|that|it to|in|into ?your|the memory',
  'souviens-toi', 'rappelle-toi', 'recuerda', 'denk daran', 'merk dir', 'ricorda', 'lembre-se',
);
export const KEEP_IN_MIND = phrases('keep|bear in mind', 'remember that');
/** What may follow "remember" in a rule ("remember when…" and "remember me" are not). */
export const REMEMBER_NEXT = phrases(
  ':', ',', '\u2014', '-', 'that', 'to', 'this :', 'this repo|project|codebase|app|service|monorepo|team', 'we', 'i', "i'm", 'the', 'our',
  'my', 'you', "it's", 'never', 'always',
  'not to', 'que', 'dass', 'de que', 'di', 'che',
);

export const PREFERENCE = phrases(
  "i'd|i+would ?much prefer|rather", 'i ?much|really|strongly prefer', 'i like it when|if', 'i like it better when',
  "i ?really hate|dislike ?it when|if", "i ?really don't+like|do+not+like ?it when|if",
);
/** "It's better to use constants": a standing judgement of how to write code (a rule verb must follow). */
export const BETTER_TO = phrases("it's|it+is|its ?always|generally|usually|much better|best to");
/** "Don't add comments, I prefer clean code": a prohibition with the preference behind it. */
export const PREFER_AFTER = phrases('i|we ?much|really|strongly|always prefer', "i'd|we'd|i+would|we+would rather", 'i|we like');
/**
 * After "that's wrong,": a statement of what a named thing does ("the API returns JSON") is the
 * fact the agent got wrong. Present tense verbs of behaviour only; "the test fails" is a report.
 */
export const FACT_VERB = new Set(['returns', 'expects', 'accepts', 'uses', 'takes', 'lives', 'runs', 'listens', 'stores', 'sends', 'speaks', 'requires']);
/** Asking for a rule to be written down: "create a rule that …", "update that rule to specify to …". */
export const RULE_REQUEST = phrases(
  '?please create|add|make|write ?a|an ?new ?cursor|global|project rule|rules', '?please update the|that ?cursor|global|project rule|rules',
  '?please make sure the|that|this rule|rules mentions|says|specifies|states', '?please mention|note that',
);
export const RULE_SAYS = phrases('that|which|to specifies|specify|says|say|states|state|mentions|mention', 'providing guidance on');
/** What makes a prohibition standing: "unless I ask for it", "without asking me", "without my approval". */
export const STANDING_CONDITION = phrases(
  'unless i|you|we ?explicitly|specifically ask|say|tell|request|approve', 'without asking|checking|showing|telling|confirming|consulting ?me',
  'without my|explicit ?explicit approval|permission|consent|ok|go-ahead',
);
/** "you should not be editing …", "you are not to commit …". */
export const MODAL_NOT = phrases('should|must not|never', "shouldn't|mustn't", 'are not|never to');
export const WANTS_YOU = phrases('i want|need you to always|never|stop', "i'd like you to always|never|stop", 'i would like you to always|never|stop');

/** Who a rule with "always"/"never" is about. */
export const SUBJECTS = new Map([
  ['you', 'you'], ['we', 'we'], ['i', 'i'], ['claude', 'claude'], ["you'll", 'you'], ["you'd", 'you'], ["we'll", 'we'],
  ["we'd", 'we'], ["i'll", 'i'], ["i'd", 'i'], ["claude'll", 'claude'],
]);
export const MODAL = phrases('should', 'must', 'will', 'need to', 'have to', 'ought to');
export const ALWAYS_NEVER = phrases(
  'always|allways|alwyas|alwasy|awlays|alwys', 'never|nver|nevr|neevr ?ever', "don't ?you ever", 'do not ever', 'under no circumstances ?should you',
);
/** How "we" say what the team does not do: "we don't do default exports", "we dont mock the database". */
export const WE_DONT = phrases("don't|dont|do+not|never");

/** Verbs a durable rule starts with (broad); transient ones like fix, add or check are left out. */
export const RULE_VERB = phrases(
  "?please use|don't|dont|never|always|avoid|prefer|stop|keep|put|run|call|name|write|import|leave|only|ask|follow|pin|format|indent|prefix|place|store|wrap|target|be",
  '?please do not', '?please make sure', '?please stick to|with', '?please switch|default to',
);
/** The narrower set a weak cue ("no,", "that's wrong") needs after it. */
export const STRONG_RULE = phrases(
  "?please use|don't|dont|never|always|avoid|prefer|stop", '?please do not', '?please only use', '?please stick to|with',
  '?please switch|default to',
  "we use|don't|never|always|prefer|only|run|deploy|keep|put|name|write|stick|follow|avoid|ship", 'we do not', 'just use',
);
export const YOU_MODAL = phrases("you should|must|ought+to ?always|never", "you need|have to ?always|never", "you've got to ?always|never");
export const PROHIBITION = phrases("?please don't|dont|never|stop|quit|avoid", '?please do not');

/** Durable words at the end of a sentence: "use pnpm from now on", "don't add emojis again". */
export const TRAILING_DURABLE = phrases('from now on', 'going|moving forward', 'from here on ?out', 'in ?the future', 'henceforth');
export const TRAILING_AGAIN = phrases('?ever again', 'anymore', 'any more', 'ever');
export const TRAILING_REMEMBER = phrases(
  '?please remember that|this|it', "?please don't forget that|this|it", '?please keep that|this in mind',
  '?please save|add|put that|this|it to|in ?your memory',
);
export const REMEMBER_CUT_MARKS = new Set([',', ';', ':', '\u2014', '\u2013', '(', '-']);
/** What comes off the end of a lesson. */
export const TRAILING_NOISE = phrases(
  'from now on', 'going|moving forward', 'from here on ?out', 'in ?the future', 'henceforth', '?ever again', 'anymore',
  'any more', 'please', 'thanks', 'thank you', 'ok',
);
export const INSTEAD_OPENER = phrases("?please don't|dont|never use", '?please do not use');
export const INSTEAD_USE = phrases(
  'use', 'prefer', 'we use|prefer', 'go with', 'this|the|our repo|project|codebase|app|service|monorepo uses|is', 'this is a|an', 'here we use',
  "it's|its", 'it is',
);
/** Who states a house rule: the project, or "we" about it ("this repo uses pnpm, not npm"). */
export const HOUSE_SUBJECT = phrases(
  'this|the|our repo|repository|project|codebase|app|service|monorepo|team',
  '?and|but in|on|for this|the|our repo|repository|project|codebase|app|service|monorepo|team ?we',
  'here ?we', 'we', "we're", 'we are',
);
export const WE_SHOULD_NOT = phrases('we|you should|must never|not', "we|you shouldn't|mustn't");
export const HOUSE_VERB = phrases('uses', 'use', 'want to', 'is', "'s", 'runs', 'run', 'targets', 'target', 'prefers', 'prefer', 'only uses|use', 'are using', "'re using", 'standardized|standardised on');
/** Clauses that make a statement about the project a report or a question, not a rule. */
export const HOUSE_NOT = new Set(['but', 'which', 'because', 'why', 'so', 'though', 'although', 'yet', 'until', 'since', 'whereas']);
export const CONTRAST_OPENER = phrases('use', "it's", 'its', 'it is', 'we use', 'prefer');

export const INTRO_FROM_NOW_ON = phrases('from now on', 'going|moving forward', 'for future reference', 'henceforth', 'new|house rule|rules');
export const INTRO_REMEMBER = phrases('remember', 'keep in mind', "don't forget");
export const INTRO_TOLD_YOU = phrases('i told you', 'i said', 'like|as i said');
export const INTRO_ALWAYS = phrases('always', 'never');

export const RETRY = phrases("let's|lets|let+us try ?this|that|it again", 'try again', 'one more time');
/** A sentence that starts a task: rules stated after it are the task's spec, not lessons. */
export const TASK_START = phrases(
  '?please|can+you|could+you write|implement|create|add|build|make|fix|refactor|generate|update|change|rewrite|port|convert|design|scaffold|setup|migrate|draft|review|summarize|explain|debug|investigate',
  '?please|can+you|could+you set up',
);

/** First words that make a clause a statement, not an order. */
export const NOT_IMPERATIVE = new Set([
  'i', 'we', 'you', 'it', 'they', 'he', 'she', 'there', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'their',
  'maybe', 'perhaps', 'might', 'may', 'could', 'would', 'will', "we'll", "i'll", "we'd", "i'd", "let's", 'if', 'when',
  'once', 'all', 'some', 'any', 'every', 'each', 'no', 'one', 'two', 'after', 'before',
]);

/** Past and third-person forms, and words that are no verb: "never worked", "always fails". */
export const PAST_OR_REPORT = new Set([
  'was', 'were', 'is', 'are', 'been', 'being', 'had', 'has', 'did', 'does', 'got', 'gotten', 'saw', 'seen', 'went',
  'came', 'made', 'ran', 'took', 'gave', 'found', 'thought', 'knew', 'heard', 'said', 'told', 'wrote', 'left', 'felt',
  'kept', 'held', 'brought', 'bought', 'built', 'sent', 'spent', 'lost', 'meant', 'understood', 'broke', 'broken',
  'done', 'gone', 'mind', 'gonna', 'happens', 'happened', 'seems', 'works', 'worked', 'fails', 'failed', 'the', 'a',
  'an', 'that', 'this', 'it', 'in', 'on', 'at', 'when', 'because', 'seem', 'get', 'gets', 'something', 'nothing',
  'everything', 'anything', 'someone', 'everyone', 'anyone', 'somewhere', 'there', 'so', 'too', 'like', 'same',
]);
export const BASE_FORMS_IN_ED = new Set(['embed', 'feed', 'need', 'seed', 'speed', 'proceed', 'exceed', 'succeed', 'heed', 'shed', 'shred', 'bleed', 'breed']);
/** After "I always / we never": habits that say nothing about how to work with the person. */
export const NOT_PREFERENCES = new Set([
  'forget', 'remember', 'know', 'get', 'understand', 'see', 'hear', 'think', 'wonder', 'seem', 'feel', 'mix', 'confuse',
  'struggle', 'end', 'manage', 'find', 'have', 'need', 'wanted', 'run', 'lose', 'miss', 'hit', 'break', 'care',
]);

/** Words before "not" that make it a negation ("is not"), not a contrast ("pnpm, not npm"). */
export const NEGATING = new Set([
  'is', 'are', 'was', 'were', 'do', 'does', 'did', 'should', 'would', 'could', 'can', 'will', 'have', 'has', 'had', "it's",
  "that's", "i'm", "you're", "we're", "they're", 'am', 'be', 'been', 'why', 'or', 'and', 'if', 'but', 'just', 'really',
  'still', 'definitely', 'probably', 'certainly', 'absolutely',
]);
export const NOT_CONTRASTED = new Set(['sure', 'yet', 'now', 'really', 'quite', 'working', 'needed', 'necessary', 'only', 'just', 'even', 'exactly', 'always', 'so', 'too', 'very', 'be']);
export const CONTRAST = phrases('not', 'instead of', 'rather than');

/** Words that make a lesson meaningless out of the moment it was said in. */
export const DEIXIS = phrases(
  'this file|line|function|method|class|one|time|case|test|component|pr|branch|commit|bug|error|page|step|part|bit|week|approach|way|version|solution|option|library|thing',
  'that one|line|file|function|bug|error|part|bit|approach|way|version|solution|option|library|thing', 'these|those lines|files|ones|changes', 'above', 'below',
  'the first|second|third|last|other|previous|next one|option|approach|version|way|file|line|endpoint',
  'right now', 'for now', 'yet', 'today', 'tonight', 'tomorrow', "when you're|you+are done|finished",
  "once you're|you+are done", 'when|before you finish', 'at the end', 'afterwards', 'after that|this', 'later',
);
/** Lessons about the moment: what the person meant or wanted just now, the bug at hand. */
export const MOMENT = phrases(
  'i wanted|meant|asked|said', 'i was asking|talking', "i'm asking|talking", 'the bug|error|issue|problem|crash|failure|regression|fix',
);
/** What the person just did ("I fixed the fixture") makes a report of the lesson, not a rule. */
export const JUST_DONE = phrases('i ?just|already fixed|changed|updated|added|removed|deleted|pushed|merged|reverted|ran|restarted|moved|renamed');
export const ARTICLES = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'your', 'its', 'their', 'some', 'one']);
/** "it reports to you, not me": a bare pronoun's referent is lost outside the conversation. */
export const PRONOUNS = new Set(['it', 'they', 'he', 'she', 'this', 'that']);

/** A "lesson" that tries to steer the agent rather than teach it is not kept. */
export const STEERING = phrases(
  'ignore|disregard|forget|override ?all|any|the|your ?previous|prior|above|earlier|other|system instructions|prompt|prompts|rules|guidelines',
  'system prompt', 'you are now|dan', 'you are a|an unrestricted', 'developer mode', 'no restrictions|limits|filters',
);

export const STOPWORDS = new Set([
  'the', 'a', 'an', 'it', 'its', "it's", 'this', 'that', 'these', 'those', 'to', 'of', 'in', 'on', 'for', 'and', 'or',
  'but', 'do', 'does', 'did', "don't", 'dont', 'not', 'no', 'never', 'always', 'again', 'ever', 'anymore', 'me', 'my',
  'you', 'your', 'we', 'our', 'us', 'i', 'is', 'are', 'be', 'was', 'were', 'so', 'just', 'like', 'thing', 'things',
  'stuff', 'way', 'one', 'here', 'there', 'please', 'with', 'at', 'by', 'as', 'if', 'then', 'them', 'they', 'he',
  'she', 'him', 'her', 'what', 'which', 'who', 'how', 'when', 'why', 'all', 'any', 'some', 'more', 'less', 'too',
  'very', 'really', 'okay', 'ok', 'yes', 'yeah', 'same', 'say', 'said', 'tell', 'told',
  // The cue's own words: "I'd rather not" says nothing.
  "i'd", "i'm", "i've", 'rather', 'prefer', 'would', 'want', 'should', 'must', 'remember', 'stop', 'make', 'sure',
]);

export const GLOBAL = phrases(
  'in|for|across|on all|every|each|any ?of ?my|our|the|your project|projects|repo|repos|repositories|codebase|codebases|session|sessions|work',
  'no matter the|which|what project|repo',
);
export const THIS_PROJECT = phrases('this|the|our project|repo|repository|codebase|app|service|monorepo', 'here');
export const ABOUT_THE_PERSON = phrases('i', "i'm", 'i am', "i'd", "i've", 'my');
