import { describe, expect, it } from 'vitest';
import { analyze, canRecall, MAX_QUERY_WORDS, queryWords } from '../src/indexes/query-words.js';

describe('query words', () => {
  it('drops stop words and question filler, folds words by Porter\'s algorithm (the stemmer package, on both sides)', () => {
    expect(queryWords('How do we run the DB migrations again?')).toEqual(['run', 'db', 'migrat']);
    expect(queryWords('which package manager for installs')).toEqual(queryWords('packaging managers install'));
    expect(queryWords('remind me: which migrations are deploying?')).toEqual(['migrat', 'deploi']);
  });

  it('splits identifiers on camelCase, snake_case, kebab-case and paths, keeping the whole identifier', () => {
    expect(analyze('fetchUserData')).toEqual(['fetchuserdata', 'fetch', 'user', 'data']);
    expect(analyze('src/api/user_client.ts')).toEqual(['src/api/user_client.ts', 'src', 'api', 'user', 'client', 'ts']);
    expect(analyze('PAY-123')).toEqual(['pay-123', 'pai', '123']);
    expect(analyze('HTTPServer node20')).toEqual(['httpserver', 'http', 'server', 'node20', 'node', '20']);
  });

  it('folds accents and drops contractions whole', () => {
    expect(queryWords("don't cache the café menus")).toEqual(['cach', 'cafe', 'menu']);
  });

  it('keeps repeats for documents and distinct words for queries', () => {
    expect(analyze('tests test testing')).toEqual(['test', 'test', 'test']);
    expect(queryWords('tests test testing')).toEqual(['test']);
  });

  it('says a prompt of fewer than two content words recalls nothing', () => {
    expect(canRecall(queryWords('ok'))).toBe(false);
    expect(canRecall(queryWords('what about it?'))).toBe(false);
    expect(canRecall(queryWords('postgres'))).toBe(false);
    expect(canRecall(queryWords('postgres vacuum'))).toBe(true);
  });

  it('bounds a huge prompt and code-only prompts', () => {
    const huge = Array.from({ length: 10_000 }, (_, i) => `word${i}`).join(' ');
    expect(queryWords(huge)).toHaveLength(MAX_QUERY_WORDS);
    expect(queryWords('{}();[]=>!!')).toEqual([]);
    expect(queryWords('const x = await db.query(sql);')).toEqual(['const', 'await', 'db.query', 'db', 'queri', 'sql']);
  });
});
