import { useEffect, useRef, useState } from 'react';
import { discardUnfinishedUpload, findUnfinishedUploads, type UnfinishedUpload } from '../../api/resumable-uploads.api';
import { useAppSelector } from '../../state/hooks';
import { useUploader } from './useUploader';

const link = 'rounded-full px-3 py-1 text-sm font-medium text-primary hover:bg-primary/10';

/**
 * Big uploads a reload or a closed browser interrupted, offered for resumption: the browser
 * cannot reopen a file by itself, so the person picks the same file again and it continues from
 * what the server already holds.
 */
export function ResumeOffers() {
  const [offers, setOffers] = useState<UnfinishedUpload[]>([]);
  const [mismatch, setMismatch] = useState<string | null>(null);
  const picking = useRef<UnfinishedUpload | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const { uploadFiles } = useUploader();
  const owner = useAppSelector((state) => state.user.user?._id);

  useEffect(() => {
    let live = true;
    if (owner)
      void findUnfinishedUploads(owner).then(
        (found) => live && setOffers(found),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [owner]);

  if (offers.length === 0) return null;
  const drop = (offer: UnfinishedUpload) => setOffers((list) => list.filter((o) => o.key !== offer.key));

  return (
    <section
      aria-label="Unfinished uploads"
      className="fixed bottom-2 left-2 z-40 w-[min(360px,calc(100vw-1rem))] rounded-2xl bg-white p-4 shadow-2xl ring-1 ring-black/10 sm:bottom-4 sm:left-4"
    >
      <h2 className="text-sm font-medium text-ink">Unfinished uploads</h2>
      <p className="mt-1 text-xs text-muted">Pick the same file again to continue where it stopped.</p>
      <input
        ref={input}
        type="file"
        hidden
        data-testid="resume-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          const offer = picking.current;
          event.target.value = '';
          if (!file || !offer) return;
          if (file.name !== offer.filename || file.size !== offer.size) {
            setMismatch(`That is not “${offer.filename}”: pick the same file to continue.`);
            return;
          }
          setMismatch(null);
          uploadFiles([file], offer.parent);
          drop(offer);
        }}
      />
      <ul className="mt-2 divide-y divide-gray-100">
        {offers.map((offer) => (
          <li key={offer.key} className="flex items-center gap-2 py-1.5">
            <span className="min-w-0 flex-1 truncate text-sm text-ink" title={offer.filename}>
              {offer.filename}
            </span>
            <button
              type="button"
              className={link}
              aria-label={`Pick ${offer.filename} again to resume it`}
              onClick={() => {
                picking.current = offer;
                input.current?.click();
              }}
            >
              Resume
            </button>
            <button
              type="button"
              className={link}
              aria-label={`Discard upload of ${offer.filename}`}
              onClick={() => {
                drop(offer);
                void discardUnfinishedUpload(offer);
              }}
            >
              Discard
            </button>
          </li>
        ))}
      </ul>
      {mismatch && (
        <p role="alert" className="mt-2 text-xs text-red-700">
          {mismatch}
        </p>
      )}
    </section>
  );
}
