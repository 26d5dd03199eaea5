import type { FileDto } from '@nimbus/common';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { ChevronLeftIcon, ChevronRightIcon, MoreVertIcon } from '../../components/file-icons';
import { CloseIcon } from '../../components/icons';
import { useAppDispatch } from '../../state/hooks';
import { resetPopupSelect, setPopupSelect } from '../../state/selection.slice';
import { fileItem } from '../../api/drive-items';
import { useItemMenu } from '../context-menu/useItemMenu';
import { badgeColor, extensionBadge } from '../format/file-name';
import { ownsEscape } from '../../components/ModalShell';
import { useFocusTrap } from '../../components/useFocusTrap';
import { slideClasses, useSlideClose } from '../popups/useSlideClose';
import { Spinner } from '../../components/Spinner';
import { documentKind } from './document-kind';
import { PreviewImage, PreviewVideo } from './PreviewMedia';
import { LivePhotoPreview } from './LivePhotoPreview';
import { usePreviewSiblings } from './usePreviewSiblings';
import { useStreamCredential } from './useStreamCredential';

// PDFs, text and audio bring their own libraries (pdf.js, Markdown, highlighting): loaded with the first one opened.
const DocumentPreview = lazy(() => import('./DocumentPreview').then((m) => ({ default: m.DocumentPreview })));

const roundButton =
  'flex size-10 shrink-0 items-center justify-center rounded-full text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-white';
const arrowButton =
  'absolute top-1/2 z-10 flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-black/50 text-white hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-white';

/** An earlier content of the file shown instead of the current one (from its versions). */
export interface PreviewedVersion {
  /** Says which version it is, beside the file's name ("Version of 01/05/2025 03:07pm"). */
  label: string;
  src: string;
  isVideo: boolean;
  onClose: () => void;
}

/**
 * The full-screen preview of an image or a video, with previous/next among the previewable items; for
 * a `version`, that content alone (no siblings, no item menu: its actions are the versions list's).
 */
export function FilePreviewPopup({ file, version }: { file: FileDto; version?: PreviewedVersion }) {
  const dispatch = useAppDispatch();
  const { closing, close } = useSlideClose(() => (version ? version.onClose() : dispatch(resetPopupSelect())));
  const siblings = usePreviewSiblings(file._id);
  const { previous, next } = version ? { previous: null, next: null } : siblings;
  const menu = useItemMenu(fileItem(file));
  const dialog = useRef<HTMLDivElement>(null);
  const live = !version && (file.metadata.livePhoto !== undefined || file.metadata.motion !== undefined);
  const credential = useStreamCredential(!version && (file.metadata.isVideo || live));
  const documentType = version ? null : documentKind(file);
  const title = version ? `${file.filename} (${version.label})` : file.filename;
  const menuButton = useRef<HTMLButtonElement>(null);
  useFocusTrap(dialog, { initialFocus: 'container' });

  const show = (target: FileDto | null) => target && dispatch(setPopupSelect({ type: 'file', file: target }));
  const keys = useRef({ close, previous, next, show });
  useEffect(() => {
    keys.current = { close, previous, next, show };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { previous: before, next: after, show: go, close: shut } = keys.current;
      if (event.defaultPrevented || !ownsEscape(dialog.current)) return;
      if (event.key === 'Escape') shut();
      else if (event.key === 'ArrowLeft') go(before);
      else if (event.key === 'ArrowRight') go(after);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const openMenu = () => {
    const rect = menuButton.current?.getBoundingClientRect();
    menu.open({ x: rect ? rect.right - 192 : 0, y: rect ? rect.bottom + 4 : 0 });
  };

  return createPortal(
    <div
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-label={title}
      tabIndex={-1}
      data-testid="file-preview"
      className={`fixed inset-0 z-50 flex flex-col bg-black/90 ${slideClasses(closing)}`}
    >
      <header className="flex h-16 shrink-0 items-center gap-3 px-3 text-white sm:px-5">
        <span
          data-testid="type-badge"
          style={{ background: badgeColor(file.filename) }}
          className="rounded px-1.5 py-0.5 text-[11px] font-bold tracking-wide text-white"
        >
          {extensionBadge(file.filename)}
        </span>
        <h2 className="min-w-0 flex-1 truncate text-base font-medium" title={title}>
          {title}
        </h2>
        {!version && (
          <button ref={menuButton} type="button" aria-label="File actions" aria-haspopup="menu" className={roundButton} onClick={openMenu}>
            <MoreVertIcon className="size-6" />
          </button>
        )}
        <button type="button" aria-label="Close preview" className={roundButton} onClick={close}>
          <CloseIcon className="size-6" />
        </button>
      </header>
      <div
        data-testid="preview-stage"
        className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-4 sm:px-20"
        onClick={(event) => event.target === event.currentTarget && close()}
      >
        {previous && (
          <button type="button" aria-label="Previous file" className={`${arrowButton} left-2 sm:left-4`} onClick={() => show(previous)}>
            <ChevronLeftIcon className="size-8" />
          </button>
        )}
        {version ? (
          version.isVideo ? (
            <PreviewVideo key={version.src} file={file} credential="ready" src={version.src} />
          ) : (
            <PreviewImage key={version.src} file={file} src={version.src} />
          )
        ) : file.metadata.isVideo ? (
          <PreviewVideo key={file._id} file={file} credential={credential} />
        ) : documentType ? (
          <Suspense fallback={<Spinner className="size-10" label="Loading preview" />}>
            <DocumentPreview key={file._id} file={file} kind={documentType} />
          </Suspense>
        ) : live ? (
          <LivePhotoPreview key={file._id} file={file} credential={credential} />
        ) : (
          <PreviewImage key={file._id} file={file} />
        )}
        {next && (
          <button type="button" aria-label="Next file" className={`${arrowButton} right-2 sm:right-4`} onClick={() => show(next)}>
            <ChevronRightIcon className="size-8" />
          </button>
        )}
      </div>
      {menu.element}
    </div>,
    document.body,
  );
}
