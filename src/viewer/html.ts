/** Markup that is already safe: only `html` makes one, so user text can never become markup by accident. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * A template whose every interpolated value is escaped, except values that are themselves Html
 * (or arrays of them). Memory bodies, prompts and tool pointers are user text: they go in as
 * strings and come out inert.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += fragment(values[i]) + strings[i + 1]!;
  return new Html(out);
}

function fragment(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}
