import type { FileDto } from '@nimbus/common';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { readFile } from '../../api/file-content.api';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/file-icons';
import { Spinner } from '../../components/Spinner';
import { PreviewError } from './PreviewError';

/** pdf.js and its worker (served as an asset of its own) load with the first PDF opened. */
async function loadPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs.getDocument({ data: bytes, isEvalSupported: false, enableXfa: false }).promise;
}

const pageButton =
  'flex size-9 items-center justify-center rounded-full text-white hover:bg-white/15 disabled:opacity-30 focus-visible:outline-2 focus-visible:outline-white';

/** A PDF page by page: the page drawn on a canvas as wide as the stage allows, with previous/next and the page count. */
export function PdfPreview({ file }: { file: FileDto }) {
  const pdf = useQuery({
    queryKey: ['file-content', file._id, file.length, file.uploadDate, 'pdf'],
    queryFn: async ({ signal }) => loadPdf(await readFile(file._id, signal)),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [pageNumber, setPageNumber] = useState(1);
  const [drawn, setDrawn] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const doc = pdf.data;

  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
      // Development mounts twice at once: only a document still unshown a moment later is let go.
      setTimeout(() => !shown.current && void doc?.destroy(), 0);
    };
  }, [doc]);

  useEffect(() => {
    if (!doc || !canvas.current) return;
    let task: RenderTask | null = null;
    let live = true;
    void (async () => {
      const page = await doc.getPage(pageNumber);
      if (!live || !canvas.current) return;
      const natural = page.getViewport({ scale: 1 });
      const box = frame.current?.getBoundingClientRect();
      const fit = Math.min((box?.width || 800) / natural.width, (box?.height || 1000) / natural.height);
      const viewport = page.getViewport({ scale: Math.max(0.1, fit) * (window.devicePixelRatio || 1) });
      const target = canvas.current;
      target.width = Math.ceil(viewport.width);
      target.height = Math.ceil(viewport.height);
      target.style.width = `${Math.ceil(viewport.width / (window.devicePixelRatio || 1))}px`;
      task = page.render({ canvas: target, viewport, background: '#ffffff' });
      await task.promise;
      if (live) setDrawn(pageNumber);
    })().catch((err: unknown) => {
      if (live && (err as { name?: string }).name !== 'RenderingCancelledException') setFailed(true);
    });
    return () => {
      live = false;
      task?.cancel();
    };
  }, [doc, pageNumber]);

  if (pdf.isError || failed) return <PreviewError message="Error loading PDF" />;
  const pages = doc?.numPages ?? 0;
  return (
    <div className="flex h-full w-full flex-col items-center gap-2">
      <div ref={frame} className="relative flex min-h-0 w-full flex-1 items-start justify-center overflow-auto">
        {(!doc || drawn !== pageNumber) && <Spinner className="absolute top-1/2 size-10" label="Loading PDF" />}
        <canvas ref={canvas} data-testid="pdf-canvas" data-page={drawn ?? 0} className="max-w-full rounded bg-white shadow-2xl" />
      </div>
      {doc && (
        <nav aria-label="Pages" className="flex items-center gap-3 rounded-full bg-black/60 px-3 py-1 text-sm text-white">
          <button
            type="button"
            aria-label="Previous page"
            className={pageButton}
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((n) => n - 1)}
          >
            <ChevronLeftIcon className="size-6" />
          </button>
          <span data-testid="pdf-page-count">
            Page {pageNumber} of {pages}
          </span>
          <button
            type="button"
            aria-label="Next page"
            className={pageButton}
            disabled={pageNumber >= pages}
            onClick={() => setPageNumber((n) => n + 1)}
          >
            <ChevronRightIcon className="size-6" />
          </button>
        </nav>
      )}
    </div>
  );
}
