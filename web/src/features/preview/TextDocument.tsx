import { useEffect, useMemo, useState } from 'react';
import { renderMarkdown } from './markdown';

export const TEXT_PREVIEW_BYTES = 1024 * 1024;

const panel = 'h-full w-full max-w-4xl overflow-auto rounded-lg shadow-2xl';
const markdownStyles =
  '[&_a]:text-blue-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-neutral-300 [&_blockquote]:pl-3 [&_code]:rounded [&_code]:bg-neutral-100 [&_code]:px-1 [&_h1]:mt-4 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:font-semibold [&_li]:ml-6 [&_ol]:list-decimal [&_p]:my-2 [&_pre]:overflow-auto [&_pre]:rounded [&_pre]:bg-neutral-100 [&_pre]:p-3 [&_table]:border-collapse [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc';

export type TextKind = 'markdown' | 'json' | 'code' | 'text';

/** A JSON document indented, or as it is when it does not parse (cut short, or not JSON after all). */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function TruncatedNotice() {
  return (
    <p role="note" className="sticky top-0 bg-amber-100 px-4 py-1.5 text-sm text-amber-900">
      Showing the first 1 MB
    </p>
  );
}

/** Source code, highlighted once the highlighter has loaded (plain until then, or when too long). */
function Code({ code, language }: { code: string; language: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('./highlight').then(({ highlightCode }) => live && setHtml(highlightCode(code, language)));
    return () => {
      live = false;
    };
  }, [code, language]);
  return (
    <pre data-testid="preview-code" data-language={language} className="hljs m-0 min-h-full p-4 text-sm leading-relaxed">
      {html === null ? <code>{code}</code> : <code dangerouslySetInnerHTML={{ __html: html }} />}
    </pre>
  );
}

/** A text file as it reads: Markdown rendered (safely), JSON indented, code highlighted, plain text as it is. */
export function TextDocument({
  text,
  kind,
  language,
  truncated,
}: {
  text: string;
  kind: TextKind;
  language?: string | null;
  truncated: boolean;
}) {
  const markdown = useMemo(() => (kind === 'markdown' ? renderMarkdown(text) : ''), [kind, text]);
  const json = useMemo(() => (kind === 'json' ? prettyJson(text) : ''), [kind, text]);
  if (kind === 'markdown')
    return (
      <div className={`${panel} bg-white text-neutral-900`}>
        {truncated && <TruncatedNotice />}
        <article
          data-testid="preview-markdown"
          className={`px-6 py-4 leading-relaxed ${markdownStyles}`}
          dangerouslySetInnerHTML={{ __html: markdown }}
        />
      </div>
    );
  return (
    <div className={`${panel} bg-[#0d1117] text-neutral-100`}>
      {truncated && <TruncatedNotice />}
      {kind === 'json' ? (
        <Code code={json} language="json" />
      ) : kind === 'code' && language ? (
        <Code code={text} language={language} />
      ) : (
        <pre data-testid="preview-text" className="m-0 p-4 text-sm leading-relaxed break-words whitespace-pre-wrap">
          {text}
        </pre>
      )}
    </div>
  );
}
