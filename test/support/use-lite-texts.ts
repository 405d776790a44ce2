import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../bench/seeded-random.js';
import { repoRoot } from './temp-home.js';

/**
 * Texts that try USE Lite's tokenizer and model: short, long, spaced, accented, non-Latin,
 * unknown (emoji, symbols the vocabulary lacks) and past the model's 128 tokens; the same every run.
 */
export function oddTexts(): string[] {
  const random = seededRandom(5);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz      ABCXYZ0123456789.,;:!?\'"()[]{}<>/\\-_=+*&^%$#@~`éèüñçßøæ日本語中文한국어Ωπ∑√€£¥😀🚀👍🏽e\u0301\u00a0\tﬁ①'.split('');
  return [
    '',
    ' ',
    'which package manager should I use for installs',
    'No, I told you to use pnpm here, not npm',
    '  leading and trailing spaces  ',
    'domix hodotetex hogurulox paruvox sarimox',
    'Ünïcödé ﬁle naïve café 日本語のテキスト 😀🚀',
    ...Array.from({ length: 150 }, () => Array.from({ length: 1 + Math.floor(random() * 300) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')),
    'The build fails on deploy because the tests use npm instead of pnpm; '.repeat(60),
  ];
}

/**
 * Real prompts and memories: every `questionStep`-th question of the synthetic evaluation set
 * (fixtures/recall, developers' questions, answerable or not) and `memories` of its memory files, whole.
 */
export function evalSetTexts(memories: number, questionStep = 1): string[] {
  const root = join(repoRoot, 'fixtures', 'recall');
  const questions = readdirSync(root)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(root, name), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text));
  const files = readdirSync(join(root, 'memories'))
    .sort()
    .flatMap((dir) => readdirSync(join(root, 'memories', dir)).filter((name) => name.endsWith('.md')).sort().map((name) => join(root, 'memories', dir, name)));
  const step = Math.max(1, Math.floor(files.length / memories));
  return [...questions.filter((_, i) => i % questionStep === 0), ...files.filter((_, i) => i % step === 0).slice(0, memories).map((path) => readFileSync(path, 'utf8'))];
}
