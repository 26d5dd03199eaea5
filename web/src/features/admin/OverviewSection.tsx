import type { AdminOverviewDto } from '@nimbus/common';
import type { ReactNode } from 'react';
import { useAdminOverviewQuery } from '../../api/admin.api';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { formatDateTime } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { adminErrorMessage } from './admin-errors';
import { ModelStatusText } from './ModelStatusText';

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-gray-200 p-4">
      <h2 className="mb-2 text-sm font-medium text-muted">{title}</h2>
      <dl className="space-y-1 text-sm text-ink">{children}</dl>
    </section>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  );
}

function OverviewCards({ overview: o }: { overview: AdminOverviewDto }) {
  return (
    <div className="grid gap-4 py-4 sm:grid-cols-2">
      <Card title="Accounts">
        <Fact label="Total" value={o.accounts.total} />
        <Fact label="Active" value={o.accounts.active} />
        <Fact label="Disabled" value={o.accounts.disabled} />
        <Fact label="Administrators" value={o.accounts.admins} />
        <Fact label="Pending invitations" value={o.accounts.invitationsPending} />
      </Card>
      <Card title="Files">
        <Fact label="Files" value={o.files} />
        <Fact label="Folders" value={o.folders} />
      </Card>
      <Card title="Storage">
        <Fact label="Users' files" value={formatBytes(o.bytes.files)} />
        <Fact label="Trash" value={formatBytes(o.bytes.trash)} />
        <Fact label="Thumbnails" value={formatBytes(o.bytes.thumbnails)} />
        <Fact label="Versions" value={formatBytes(o.bytes.versions)} />
        <Fact label="Playable video copies" value={formatBytes(o.bytes.renditions)} />
        <Fact label="Free disk" value={o.disk ? `${formatBytes(o.disk.freeBytes)} of ${formatBytes(o.disk.totalBytes)}` : 'Unknown'} />
      </Card>
      <Card title="Jobs">
        <Fact label="Queued" value={o.jobs.queued} />
        <Fact label="Running" value={o.jobs.running} />
        <Fact label="Failed" value={o.jobs.failed} />
      </Card>
      <Card title="Integrity scrub">
        <Fact label="Status" value={o.scrub ? o.scrub.phase : 'Off'} />
        {o.scrub && <Fact label="Updated" value={formatDateTime(o.scrub.updatedAt)} />}
      </Card>
      <Card title="AI search">
        <Fact label="AI model" value={<ModelStatusText model={o.model} />} />
      </Card>
      <Card title="Server">
        <Fact label="Version" value={o.version} />
      </Card>
    </div>
  );
}

export function OverviewSection() {
  const overview = useAdminOverviewQuery();
  if (overview.isPending) return <Spinner className="m-8 size-8" label="Loading overview" />;
  if (overview.isError) return <FormError message={adminErrorMessage(overview.error, 'Could not load the overview.')} />;
  return <OverviewCards overview={overview.data} />;
}
