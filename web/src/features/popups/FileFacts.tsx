import type { LinkType } from '@nimbus/common';
import { formatDateTime } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { linkTypeLabel } from './file-format';

interface FileFactsProps {
  linkType: LinkType | undefined;
  size: number;
  uploadDate: string;
}

/** Link type (Temporary/Public/Private), size and upload date (MM/DD/YYYY hh:mma). */
export function FileFacts({ linkType, size, uploadDate }: FileFactsProps) {
  const rows: [string, string][] = [
    ['Link type', linkTypeLabel(linkType)],
    ['Size', formatBytes(size)],
    ['Upload date', formatDateTime(uploadDate)],
  ];
  return (
    <dl className="divide-y divide-gray-100 rounded-2xl border border-gray-200 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="flex items-center justify-between gap-4 px-4 py-3">
          <dt className="text-muted">{term}</dt>
          <dd className="text-right text-ink" data-testid={`fact-${term.toLowerCase().replace(' ', '-')}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
