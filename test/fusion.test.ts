import { describe, expect, it } from 'vitest';
import { finalCut, linearFusion, plainRrf, reciprocalRankFusion, type SignalList } from '../src/recall/fusion.js';

const bm25: SignalList = { signal: 'bm25', items: [{ id: 'x', score: 10 }, { id: 'y', score: 5 }, { id: 'w', score: 4 }] };
const vector: SignalList = { signal: 'vector', items: [{ id: 'y', score: 0.9 }, { id: 'z', score: 0.3 }] };
const round = (xs: Array<{ id: string; score: number; signals: readonly string[] }>) => xs.map((x) => [x.id, Number(x.score.toFixed(6)), x.signals.join('+')]);

describe('fusion', () => {
  it('plain RRF: Σ 1 / (60 + rank)', () => {
    expect(round(plainRrf([bm25, vector]))).toEqual([
      ['y', Number((1 / 62 + 1 / 61).toFixed(6)), 'bm25+vector'],
      ['x', Number((1 / 61).toFixed(6)), 'bm25'],
      ['z', Number((1 / 62).toFixed(6)), 'vector'],
      ['w', Number((1 / 63).toFixed(6)), 'bm25'],
    ]);
  });

  it('weighted RRF lets a weak signal add without outvoting the strong one', () => {
    const fused = reciprocalRankFusion([bm25, vector], { k: 10, weights: { vector: 0.1 } });
    expect(round(fused)).toEqual([
      ['y', Number((1 / 12 + 0.1 / 11).toFixed(6)), 'bm25+vector'],
      ['x', Number((1 / 11).toFixed(6)), 'bm25'],
      ['w', Number((1 / 13).toFixed(6)), 'bm25'],
      ['z', Number((0.1 / 12).toFixed(6)), 'vector'],
    ]);
  });

  it('linear fusion: each list min-max normalised, then weighted and summed', () => {
    // bm25: x 1, y 1/6, w 0; vector: y 1, z 0.
    expect(round(linearFusion([bm25, vector], { weights: { vector: 0.5 } }))).toEqual([
      ['x', 1, 'bm25'],
      ['y', Number((1 / 6 + 0.5).toFixed(6)), 'bm25+vector'],
      ['w', 0, 'bm25'],
      ['z', 0, 'vector'],
    ]);
    // A list of equal scores says only "on the list": 1 each.
    expect(round(linearFusion([{ signal: 'graph', items: [{ id: 'a', score: 1 }, { id: 'b', score: 1 }] }]))).toEqual([['a', 1, 'graph'], ['b', 1, 'graph']]);
  });

  it('the final cut: times strength, at least half the best, top 3, nothing without strength', () => {
    const fused = [
      { id: 'a', score: 1, signals: ['bm25'] },
      { id: 'b', score: 0.9, signals: ['bm25'] },
      { id: 'c', score: 0.8, signals: ['bm25'] },
      { id: 'd', score: 0.7, signals: ['bm25'] },
      { id: 'e', score: 0.6, signals: ['bm25'] },
    ];
    const strength: Record<string, number> = { a: 0.5, b: 1, c: 1, d: 1, e: 0 };
    // a 0.5, b 0.9, c 0.8, d 0.7, e 0: the best is b; a is not below 0.45, but only three fit.
    expect(finalCut(fused, (id) => strength[id]!).map((x) => [x.id, x.score])).toEqual([['b', 0.9], ['c', 0.8], ['d', 0.7]]);
    expect(finalCut(fused, (id) => (id === 'a' ? 1 : 0.4)).map((x) => x.id)).toEqual(['a']);
    expect(finalCut(fused, () => 0)).toEqual([]);
    expect(finalCut([], () => 1)).toEqual([]);
  });
});
