import { escapeHtml, html, Html } from './html.js';
import { href, type ViewContext } from './view-context.js';

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{background:#23262b;color:#eee;padding:8px 16px;display:flex;gap:18px;align-items:center;flex-wrap:wrap}
header a{color:#cfe3ff;text-decoration:none}header a.on{color:#fff;font-weight:600;border-bottom:2px solid #7fb2ff}
header form{margin-left:auto;display:flex;gap:6px;align-items:center}header input{width:190px}
main{padding:12px 20px;max-width:1200px}
h1{font-size:20px;margin:8px 0 12px}h2{font-size:16px;margin:18px 0 6px}h3{font-size:14px;margin:12px 0 4px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e3e3e3;padding:4px 8px;text-align:left;vertical-align:top}
th a{color:inherit}td.n{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#fff;border:1px solid #ddd;padding:8px;white-space:pre-wrap;word-break:break-word;max-height:480px;overflow:auto}
.fail{color:#b00020;font-weight:600}.muted{color:#777}.pin{color:#a05a00;font-weight:600}
.tag{display:inline-block;padding:0 6px;border-radius:8px;background:#e8eef8;font-size:12px;margin-right:3px}
.st-active{background:#dff3e3}.st-provisional{background:#fff4d6}.st-superseded{background:#eee}.st-archived{background:#f4dede}
.asof{background:#fff3c4;border:1px solid #e0c060;padding:6px 10px;margin-bottom:10px}
.live{display:none;background:#e0f0ff;border:1px solid #8ab8ee;padding:6px 10px;margin-bottom:10px}
.filters{display:flex;gap:10px;flex-wrap:wrap;align-items:end;margin-bottom:10px}.filters label{display:flex;flex-direction:column;font-size:12px}
.actions form{display:inline}.actions button{margin-right:6px}.pager{margin:10px 0;display:flex;gap:14px}
.msg{background:#e6f6e6;border:1px solid #8c8;padding:6px 10px;margin-bottom:10px}
`;

export type Section = 'timeline' | 'memories' | 'recall';

/**
 * One page: the navigation, the as-of box (a seq or an ISO time), a banner while the page shows
 * the past, and on live pages a notice when new events arrive (server-sent events from /live).
 */
export function layout(ctx: ViewContext, title: string, section: Section, body: Html): string {
  const nav = (name: Section, label: string, path: string) => html`<a class="${section === name ? 'on' : ''}" href="${href(ctx, path)}">${label}</a>`;
  // Script text is not HTML: entities are not decoded there, so it is built as JSON, with `<` escaped so it cannot close the element.
  const stream = JSON.stringify(href(ctx, '/live', {}, true)).replace(/</g, '\\u003c');
  const liveScript = ctx.asOf === undefined
    ? new Html(`<script nonce="${escapeHtml(ctx.nonce)}">
(() => { const seen = ${ctx.head}; const box = document.getElementById('live');
  const es = new EventSource(${stream});
  es.onmessage = (m) => { const head = Number(m.data); if (head > seen) { box.style.display = 'block'; box.querySelector('span').textContent = String(head - seen); } };
})();
</script>`)
    : html``;
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="same-origin"><title>${title} · engram</title><style>${CSS}</style></head>
<body><header><strong>engram</strong>${nav('timeline', 'Timeline', '/timeline')}${nav('memories', 'Memories', '/memories')}${nav('recall', 'Recall traces', '/recall')}
<form method="get" action="/timeline"><input type="hidden" name="t" value="${ctx.token}"><label>as of <input name="asof" placeholder="seq or 2026-12-01T10:00:00Z" value="${ctx.asOf ?? ''}"></label><button>view</button></form></header>
<main>${ctx.asOf === undefined
    ? html`<div class="live" id="live"><span>0</span> new events since this page was made. <a href="">Reload</a></div>`
    : html`<div class="asof" id="asof">As of seq ${ctx.asOf} (replayed into a scratch directory; the live memory is untouched). <a href="${href(ctx, '/timeline', { asof: undefined }, true)}">Back to live</a></div>`}
<h1>${title}</h1>${body}</main>${liveScript}</body></html>`;
  return doc.text;
}

/** A short, one-line view of a long text. */
export function clip(text: string, chars: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > chars ? `${line.slice(0, chars - 1)}…` : line;
}
