import type { ContentAuthorDto, FileDto, FileVersionDto } from '@nimbus/common';
import { lazy, Suspense, useId, useState } from 'react';
import { downloadItems, downloadVersion } from '../../api/download';
import { versionDownloadUrl } from '../../api/versions.api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useAppDispatch } from '../../state/hooks';
import { setPopupSelect } from '../../state/selection.slice';
import { formatDateTime } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { fileAccess } from '../item-shares/shared-access';
import { hasPreview } from '../preview/preview-siblings';
import { useVersionUpload } from '../upload/useVersionUpload';
import { useFileVersions } from './useFileVersions';
import { authorLine, previewKindOf, relativeTime } from './version-format';

const FilePreviewPopup = lazy(() => import('../preview/FilePreviewPopup').then((m) => ({ default: m.FilePreviewPopup })));

const actionClass = 'rounded-full px-2 py-1 text-xs font-medium text-primary hover:bg-blue-50 disabled:text-gray-400';

function VersionLine({
  label,
  at,
  size,
  author,
  now,
}: {
  label?: string;
  at: string;
  size: number;
  author: ContentAuthorDto;
  now: number;
}) {
  const by = authorLine(author);
  return (
    <div className="flex min-w-0 flex-col">
      {label && <span className="text-sm font-medium text-ink">{label}</span>}
      <span className="text-sm text-ink" title={formatDateTime(at)}>
        {relativeTime(at, now)} <span className="text-muted">· {formatDateTime(at)}</span>
      </span>
      <span className="truncate text-xs text-muted" title={by ?? undefined}>
        {formatBytes(size)}
        {by && ` · ${by}`}
      </span>
    </div>
  );
}

type Confirming = { action: 'restore' | 'delete'; version: FileVersionDto } | null;

/**
 * The details panel's "Versions": the current content, then each earlier one to download, preview
 * (images and videos), restore (owner and editors) or delete (the owner). Viewers see and download them.
 * `currentActions`: false where the host already offers the current content's download.
 */
export function FileVersions({ file, currentActions = true }: { file: FileDto; currentActions?: boolean }) {
  const headingId = useId();
  const dispatch = useAppDispatch();
  const role = fileAccess(file).role;
  const canChange = role !== 'viewer';
  const { versions, restore, remove } = useFileVersions(file);
  const uploadVersion = useVersionUpload();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [previewing, setPreviewing] = useState<FileVersionDto | null>(null);
  const now = Date.now();

  const confirm = () => {
    if (!confirming) return;
    (confirming.action === 'restore' ? restore : remove).mutate(confirming.version.id);
    setConfirming(null);
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2" data-testid="file-versions">
      <div className="flex items-center justify-between gap-2">
        <p id={headingId} className="text-xs font-medium text-muted">
          Versions
        </p>
        {canChange && (
          <button type="button" className={actionClass} onClick={() => void uploadVersion(file)}>
            Upload new version
          </button>
        )}
      </div>
      {versions.isError && <p className="text-xs text-red-600">The versions could not be loaded.</p>}
      {versions.data && (
        <ul aria-label="Versions" className="flex flex-col divide-y divide-gray-100">
          <li aria-label="Current version" className="flex flex-col gap-1 py-2" data-testid="version">
            <VersionLine
              label="Current version"
              at={versions.data.current.createdAt}
              size={versions.data.current.size}
              author={versions.data.current.author}
              now={now}
            />
            {currentActions && (
              <div className="-ml-2 flex flex-wrap gap-1">
                <button type="button" className={actionClass} onClick={() => void downloadItems([{ type: 'file', id: file._id }])}>
                  Download
                </button>
                {hasPreview(file) && (
                  <button type="button" className={actionClass} onClick={() => dispatch(setPopupSelect({ type: 'file', file }))}>
                    Preview
                  </button>
                )}
              </div>
            )}
          </li>
          {versions.data.versions.map((version) => (
            <li
              key={version.id}
              aria-label={`Version of ${formatDateTime(version.createdAt)}`}
              className="flex flex-col gap-1 py-2"
              data-testid="version"
            >
              <VersionLine at={version.createdAt} size={version.size} author={version.author} now={now} />
              <div className="-ml-2 flex flex-wrap gap-1">
                <button type="button" className={actionClass} onClick={() => void downloadVersion(file._id, version.id)}>
                  Download
                </button>
                {previewKindOf(version.contentType) && (
                  <button type="button" className={actionClass} onClick={() => setPreviewing(version)}>
                    Preview
                  </button>
                )}
                {canChange && (
                  <button
                    type="button"
                    className={actionClass}
                    disabled={restore.isPending}
                    onClick={() => setConfirming({ action: 'restore', version })}
                  >
                    Restore
                  </button>
                )}
                {role === 'owner' && (
                  <button
                    type="button"
                    className={`${actionClass} text-red-600`}
                    disabled={remove.isPending && remove.variables === version.id}
                    onClick={() => setConfirming({ action: 'delete', version })}
                  >
                    Delete
                  </button>
                )}
              </div>
            </li>
          ))}
          {versions.data.versions.length === 0 && <li className="py-2 text-xs text-muted">No earlier versions</li>}
        </ul>
      )}
      {confirming?.action === 'restore' && (
        <ConfirmDialog
          title="Restore this version?"
          text={`${file.filename} goes back to its content of ${formatDateTime(confirming.version.createdAt)}. The current content is kept as a version.`}
          confirmLabel="Restore"
          onConfirm={confirm}
          onCancel={() => setConfirming(null)}
        />
      )}
      {confirming?.action === 'delete' && (
        <ConfirmDialog
          title="Delete this version?"
          text={`The version of ${formatDateTime(confirming.version.createdAt)} is deleted for good.`}
          confirmLabel="Delete"
          danger
          onConfirm={confirm}
          onCancel={() => setConfirming(null)}
        />
      )}
      {previewing && (
        <Suspense fallback={null}>
          <FilePreviewPopup
            file={file}
            version={{
              label: `version of ${formatDateTime(previewing.createdAt)}`,
              src: versionDownloadUrl(file._id, previewing.id, true),
              isVideo: previewKindOf(previewing.contentType) === 'video',
              onClose: () => setPreviewing(null),
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
