import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestMatch, jaccard, memoryTokens, nearDuplicates, stem, tokenize, type TokenSetItem } from '../src/memories/similarity.js';

describe('tokenize', () => {
  it.each<[string, string, string[]]>([
    ['lower case, stop words out, order of first appearance', 'Use the PNPM workspace, not npm', ['us', 'pnpm', 'workspac', 'not', 'npm']],
    ['splits on underscores, dots and dashes', 'feedback_testing-style node.js', ['feedback', 'test', 'style', 'node', 'js']],
    ['distinct tokens only', 'tests test testing tested', ['test']],
    ['negations and polarity words survive', "Never use yarn; don't ever use npm, always pnpm", ['never', 'us', 'yarn', 'dont', 'ever', 'npm', 'alwai', 'pnpm']],
    ['a curly apostrophe too', 'the user’s config', ['user', 'config']],
    ['digits kept, single letters dropped', 'Node 18 vs node 20 in a CI x', ['node', '18', 'vs', '20', 'ci']],
    ['camelCase stays whole', 'parseConfig in JavaScript', ['parseconfig', 'javascript']],
    ['accents folded on Latin letters', 'Café résumé naïve', ['cafe', 'resum', 'naiv']],
    ['full-width letters folded', 'ＰＮＰＭ ｗｏｒｋｓｐａｃｅ', ['pnpm', 'workspac']],
    ['Cyrillic words, accents folded', 'Используй pnpm, ёлка', ['используи', 'pnpm', 'елка']],
    ['Devanagari keeps its vowel signs', 'परीक्षण चलाओ', ['परीक्षण', 'चलाओ']],
    ['Chinese becomes character bigrams', '使用pnpm安装依赖', ['使用', 'pnpm', '安装', '装依', '依赖']],
    ['Japanese too, with the long-vowel mark', 'テストを実行', ['テス', 'スト', 'トを', 'を実', '実行']],
    ['a single CJK character is its own token', '用 x', ['用']],
    ['nothing', '  — ... ', []],
  ])('%s', (_, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it('memoryTokens reads name and description together', () => {
    expect(memoryTokens({ name: 'prefer_pnpm', description: 'Use pnpm workspaces' })).toEqual(['prefer', 'pnpm', 'us', 'workspac']);
  });

  it('is deterministic and idempotent on its own output', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const once = tokenize(text);
        expect(tokenize(text)).toEqual(once);
        for (const token of once) expect(token).toBe(token.toLowerCase());
      }),
    );
  });
});

describe('stem: Porter steps 1 and 5 only', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['cats', 'cat'],
    ['feed', 'feed'],
    ['plastered', 'plaster'],
    ['motoring', 'motor'],
    ['sing', 'sing'],
    ['string', 'string'],
    ['hopping', 'hop'],
    ['tanned', 'tan'],
    ['falling', 'fall'],
    ['hissing', 'hiss'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['sky', 'sky'],
    ['policy', 'polici'],
    ['policies', 'polici'],
    ['use', 'us'],
    ['used', 'us'],
    ['using', 'us'],
    ['controlled', 'control'],
    ['generate', 'generat'],
    ['generated', 'generat'],
    // Derivational suffixes are left alone: these stay apart.
    ['generation', 'generation'],
    ['general', 'general'],
    ['generic', 'generic'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe('jaccard', () => {
  it.each<[string[], string[], number]>([
    [['a', 'b'], ['a', 'b'], 1],
    [['a', 'b', 'c'], ['a', 'b', 'd'], 0.5],
    [['a', 'a', 'b'], ['b'], 0.5],
    [['a'], [], 0],
    [[], [], 0],
  ])('%j vs %j = %d', (a, b, expected) => {
    expect(jaccard(a, b)).toBe(expected);
    expect(jaccard(new Set(b), new Set(a))).toBe(expected);
  });

  it('re-wordings of one lesson meet the threshold; opposite lessons do not', () => {
    const same = jaccard(tokenize('Run the tests before committing'), tokenize('Running tests before a commit'));
    expect(same).toBeGreaterThanOrEqual(0.6);
    expect(jaccard(tokenize('Always use pnpm'), tokenize('Never use pnpm'))).toBeLessThan(0.6);
  });
});

const item = (id: string, text: string): TokenSetItem => ({ id, tokens: tokenize(text) });

/** Every pair, compared: the reference the indexed version must equal. */
function allPairs(items: readonly TokenSetItem[], threshold: number): Array<[string, string, number]> {
  const pairs: Array<[string, string, number]> = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const similarity = jaccard(items[i]!.tokens, items[j]!.tokens);
      if (similarity > 0 && similarity >= threshold) {
        const [a, b] = items[i]!.id <= items[j]!.id ? [items[i]!, items[j]!] : [items[j]!, items[i]!];
        pairs.push([a.id, b.id, similarity]);
      }
    }
  }
  return pairs.sort((p, q) => q[2] - p[2] || (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0));
}

describe('nearDuplicates', () => {
  it('finds the pairs at or above 0.6, most similar first, ids in order', () => {
    const items = [
      item('m3', 'Prefer pnpm over npm for installs'),
      item('m1', 'Run the unit tests before committing'),
      item('m2', 'Running tests before a commit'),
      item('m4', 'pnpm over npm for installs, always'),
      item('m7', 'Use pnpm, not npm, for installing'),
      item('m5', 'The staging database is read-only on Fridays'),
      item('m6', 'staging database read only Friday'),
    ];
    const found = nearDuplicates(items).map(({ a, b, similarity }) => [a.id, b.id, Math.round(similarity * 100) / 100]);
    expect(found).toEqual([
      ['m5', 'm6', 1],
      ['m1', 'm2', 0.75],
      ['m3', 'm4', 0.6],
    ]);
  });

  it('the threshold is inclusive: exactly 3 of 5 shared tokens is 0.6', () => {
    const items = [
      { id: 'a', tokens: ['p', 'q', 'r', 's'] },
      { id: 'b', tokens: ['p', 'q', 'r', 't'] },
    ];
    expect(nearDuplicates(items).map((pair) => pair.similarity)).toEqual([0.6]);
    expect(nearDuplicates(items, 0.61)).toEqual([]);
  });

  it('never pairs sets that share nothing, even at threshold 0, nor empty sets', () => {
    const items = [
      { id: 'a', tokens: ['x'] },
      { id: 'b', tokens: ['y'] },
      { id: 'c', tokens: [] },
      { id: 'd', tokens: [] },
    ];
    expect(nearDuplicates(items, 0)).toEqual([]);
  });

  it('equals comparing every pair, for any sets and thresholds', () => {
    const vocabulary = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 8 }), { maxLength: 25 }),
        fc.constantFrom(0, 0.1, 0.3, 0.5, 0.6, 0.7, 0.75, 0.9, 1),
        (sets, threshold) => {
          const items = sets.map((tokens, i) => ({ id: `m${String(i).padStart(2, '0')}`, tokens }));
          const found = nearDuplicates(items, threshold).map(({ a, b, similarity }): [string, string, number] => [a.id, b.id, similarity]);
          expect(found).toEqual(allPairs(items, threshold));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same list whatever the input order', () => {
    const items = [item('x', 'alpha beta gamma'), item('y', 'alpha beta gamma delta'), item('z', 'alpha beta gamma'), item('w', 'beta gamma delta')];
    const ids = (list: TokenSetItem[]) => nearDuplicates(list).map(({ a, b }) => `${a.id}-${b.id}`);
    expect(ids([...items].reverse())).toEqual(ids(items));
    expect(ids(items)).toEqual(['x-z', 'w-y', 'x-y', 'y-z']);
  });

  it('finds planted re-wordings among 5,000 memories sharing common words', () => {
    // 5,000 memories over a realistic vocabulary, with 50 planted re-wordings.
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
    let seed = 7;
    // mulberry32: a seeded generator, so the corpus is the same on every run.
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const items: TokenSetItem[] = [];
    for (let i = 0; i < 5000; i++) {
      const tokens = new Set<string>(['use', 'project']);
      while (tokens.size < 10) tokens.add(words[Math.floor(random() * words.length)]!);
      items.push({ id: `m${String(i).padStart(5, '0')}`, tokens: [...tokens] });
    }
    for (let i = 0; i < 50; i++) {
      const original = [...items[i * 97]!.tokens];
      items.push({ id: `dup${String(i).padStart(2, '0')}`, tokens: [...original.slice(0, 9), 'reworded'] });
    }
    const found = nearDuplicates(items);
    expect(found.map(({ a, b }) => `${a.id}-${b.id}`).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `dup${String(i).padStart(2, '0')}-m${String(i * 97).padStart(5, '0')}`),
    );
  });
});

describe('bestMatch: the same lesson again', () => {
  const memories = [
    { id: 'feedback_tests', type: 'feedback', tokens: tokenize('Run the tests before committing') },
    { id: 'project_tests', type: 'project', tokens: tokenize('Run the tests before committing') },
    { id: 'feedback_pnpm', type: 'feedback', tokens: tokenize('Always use pnpm') },
    { id: 'feedback_tests_2', type: 'feedback', tokens: tokenize('Run tests before committing') },
  ];

  it('picks the most similar memory of the same type', () => {
    const match = bestMatch({ type: 'feedback', tokens: tokenize('Running the tests before commits') }, memories);
    expect(match?.item.id).toBe('feedback_tests');
    expect(match?.similarity).toBe(1);
  });

  it('ties go to the id that sorts first', () => {
    const match = bestMatch({ type: 'feedback', tokens: ['run', 'test', 'commit'] }, [...memories].reverse(), 0.5);
    expect(match?.item.id).toBe('feedback_tests');
  });

  it('never crosses types, and says so when nothing is close enough', () => {
    expect(bestMatch({ type: 'user', tokens: tokenize('Run the tests before committing') }, memories)).toBeUndefined();
    expect(bestMatch({ type: 'feedback', tokens: tokenize('Never use pnpm') }, memories)).toBeUndefined();
    expect(bestMatch({ type: 'feedback', tokens: [] }, memories, 0)).toBeUndefined();
  });

  it('without a type, every memory is a candidate', () => {
    expect(bestMatch({ tokens: tokenize('always pnpm') }, memories)?.item.id).toBe('feedback_pnpm');
  });
});
