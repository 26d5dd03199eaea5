import { useId, useRef, useState, type DragEvent } from 'react';
import { getBrowserId } from '../../api/browser-id';
import { RESUMABLE_MIN_BYTES } from '../../api/resumable-uploads.api';
import { sendDropResumable, sharedUrls } from '../../api/share-links.api';
import { Button } from '../../components/Button';
import { CancelCircleIcon, DoneCircleIcon } from '../../components/file-icons';
import { UploadFileIcon } from '../../components/icons';
import { formatBytes } from '../format/format-size';

interface Row {
  key: number;
  name: string;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  /** The name the file was stored under, or why it failed. */
  note?: string;
}

interface Limits {
  maxFileBytes: number | null;
  filesLeft: number | null;
}

/** Sends one file with its progress; resolves with the server's JSON answer or its error message. */
function send(
  url: string,
  file: File,
  uploaderName: string,
  onProgress: (fraction: number) => void,
): Promise<{ ok: boolean; body: unknown }> {
  return new Promise((resolve) => {
    const form = new FormData();
    // The name comes before the file, so the server knows it when the bytes arrive.
    if (uploaderName.trim()) form.append('name', uploaderName.trim());
    form.append('file', file, file.name);
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('uuid', getBrowserId());
    request.responseType = 'json';
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => resolve({ ok: request.status === 201, body: request.response as unknown });
    request.onerror = () => resolve({ ok: false, body: { error: 'The connection was lost' } });
    request.send(form);
  });
}

/** An upload-only link: visitors send files into the folder and see nothing of what it holds. */
export function DropArea({ token, folderName, limits }: { token: string; folderName: string; limits: Limits }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const nameId = useId();
  const [uploaderName, setUploaderName] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [dragging, setDragging] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const nextKey = useRef(0);

  const update = (key: number, change: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const add = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = nextKey.current++;
      const tooBig = limits.maxFileBytes !== null && file.size > limits.maxFileBytes;
      setRows((all) => [
        ...all,
        tooBig
          ? { key, name: file.name, progress: 0, state: 'failed', note: `Larger than ${formatBytes(limits.maxFileBytes!)}` }
          : { key, name: file.name, progress: 0, state: 'waiting' },
      ]);
      if (tooBig) continue;
      queue.current = queue.current.then(async () => {
        update(key, { state: 'uploading' });
        const onProgress = (progress: number) => update(key, { progress });
        if (file.size >= RESUMABLE_MIN_BYTES) {
          // Big files go in resumable pieces, so a dropped connection or a reload loses little.
          await sendDropResumable(token, file, uploaderName, onProgress).then(
            () => update(key, { state: 'done', progress: 1, note: undefined }),
            (err: Error) => update(key, { state: 'failed', note: err.message }),
          );
          return;
        }
        const { ok, body } = await send(sharedUrls.upload(token), file, uploaderName, onProgress);
        const answer = (body ?? {}) as { filename?: string; error?: string };
        update(
          key,
          ok ? { state: 'done', progress: 1, note: answer.filename } : { state: 'failed', note: answer.error ?? 'Upload failed' },
        );
      });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  };

  const sent = rows.filter((r) => r.state === 'done').length;
  return (
    <div className="flex flex-col gap-5">
      <div className="text-center">
        <h1 className="text-lg font-medium text-ink">Send files to “{folderName}”</h1>
        <p className="mt-1 text-sm text-muted">
          The files you send go to the owner of this link. You cannot see what the folder holds.
          {limits.maxFileBytes !== null && ` Up to ${formatBytes(limits.maxFileBytes)} a file.`}
          {limits.filesLeft !== null && ` ${Math.max(0, limits.filesLeft - sent)} more file(s) accepted.`}
        </p>
      </div>
      <label htmlFor={nameId} className="-mb-3 text-sm font-medium text-ink">
        Your name (optional)
      </label>
      <input
        id={nameId}
        value={uploaderName}
        maxLength={100}
        onChange={(event) => setUploaderName(event.target.value)}
        className="h-11 rounded-lg border border-gray-300 px-3 text-[15px] outline-none focus:border-primary focus:ring-2 focus:ring-primary/20"
      />
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed px-6 py-10 text-center ${dragging ? 'border-primary bg-blue-50' : 'border-gray-300'}`}
      >
        <UploadFileIcon className="size-10 text-primary" />
        <p className="text-sm text-ink">Drag files here</p>
        <Button variant="secondary" onClick={() => inputRef.current?.click()}>
          Choose files
        </Button>
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          aria-label="Choose files"
          onChange={(event) => {
            if (event.target.files) add(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      {rows.length > 0 && (
        <ul aria-label="Sent files" className="flex max-h-[300px] flex-col gap-2 overflow-y-auto">
          {rows.map((row) => (
            <li key={row.key} data-state={row.state} className="flex flex-col gap-1 text-sm">
              <div className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate text-ink">{row.name}</span>
                {row.state === 'done' && <DoneCircleIcon className="size-5 text-green-600" title="Sent" />}
                {row.state === 'failed' && <CancelCircleIcon className="size-5 text-red-600" title="Failed" />}
              </div>
              {row.state === 'uploading' || row.state === 'waiting' ? (
                <progress value={row.progress} max={1} className="h-1 w-full" aria-label={`Progress of ${row.name}`} />
              ) : (
                row.note && (
                  <span className={`text-xs ${row.state === 'failed' ? 'text-red-600' : 'text-muted'}`}>
                    {row.state === 'done' ? `Saved as ${row.note}` : row.note}
                  </span>
                )
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
