import type { ExtraProps } from 'react-markdown';

/**
 * What the side panel shows around a fenced code block in the model's reply: a language label
 * taken from the fence (```ts) and the code for the Copy button. The fence's info string is the
 * model's text, and a model can be steered by a page to write anything there, so the label is
 * kept only when it looks like a language name; it is shown as text, never as a class or markup.
 */

/** A hast `<pre>` element as react-markdown hands it to a component. */
export type HastElement = NonNullable<ExtraProps['node']>;

/** Longer names are cut with an ellipsis: no language needs more. */
export const MAX_LANGUAGE_CHARS = 20;

/**
 * Names like `ts`, `c++`, `c#`, `objective-c`, `shell-session`, `.env`, `python3.12`. Anything
 * else (markup, quotes, spaces, control or invisible characters, non-ASCII look-alikes) is no
 * language name and gets no label.
 */
const LANGUAGE_NAME = /^[A-Za-z0-9+#._-]+$/;

/**
 * The label for a fence's language, from the `language-<name>` class that remark-rehype puts on
 * the `<code>` (the first word of the info string); null when there is none or it is no name.
 */
export function codeLanguage(className: unknown): string | null {
  const classes = Array.isArray(className) ? className : [className];
  for (const entry of classes) {
    if (typeof entry !== 'string' || !entry.startsWith('language-')) continue;
    const name = entry.slice('language-'.length);
    if (!LANGUAGE_NAME.test(name)) return null;
    return name.length > MAX_LANGUAGE_CHARS ? `${name.slice(0, MAX_LANGUAGE_CHARS - 1)}…` : name;
  }
  return null;
}

/**
 * The text of a hast node: its text nodes in order. Comments add nothing, nor does `raw` (HTML,
 * which mdast-util-to-hast registers as a node kind and the panel never renders).
 */
function textOf(node: HastElement | HastElement['children'][number]): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

export interface CodeBlockParts {
  readonly language: string | null;
  /** The code as written in the reply, without the line end remark-rehype adds after it. */
  readonly code: string;
}

/** The label and the code of a `<pre>` from the model's markdown (`<pre><code>…</code></pre>`). */
export function codeBlockParts(pre: HastElement | undefined): CodeBlockParts {
  if (pre === undefined) return { language: null, code: '' };
  const code = pre.children.find(
    (child): child is HastElement => child.type === 'element' && child.tagName === 'code',
  );
  const text = textOf(code ?? pre);
  return {
    language: code === undefined ? null : codeLanguage(code.properties['className']),
    code: text.endsWith('\n') ? text.slice(0, -1) : text,
  };
}
