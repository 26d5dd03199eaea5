import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

const marked = new Marked({
  gfm: true,
  async: false,
  // An image would be fetched from wherever it points as soon as the file is shown: it becomes a link to follow by choice.
  walkTokens(token) {
    if (token.type !== 'image') return;
    const image = token as Tokens.Image;
    const label = image.text || image.href;
    Object.assign(token, { type: 'link', tokens: [{ type: 'text', raw: label, text: label, escaped: false }] });
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** Everything that runs, loads by itself or takes input; what is left is text, structure and links. */
const FORBID_TAGS = [
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'track',
  'iframe',
  'frame',
  'object',
  'embed',
  'style',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'svg',
  'math',
];

/** Markdown as HTML that is safe to insert: no scripts, handlers, styles or remote loads, links open apart. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return purify.sanitize(html, { FORBID_TAGS, FORBID_ATTR: ['style', 'srcset', 'background', 'poster', 'action', 'formaction'] });
}
