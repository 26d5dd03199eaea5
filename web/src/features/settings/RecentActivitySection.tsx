import { ACTIVITY_LIMITS, type ActivityEventDto } from '@nimbus/common';
import { useActivityQuery } from '../../api/activity.api';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { describeActivity, describeClient } from './activity-labels';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ActivityRow({ event }: { event: ActivityEventDto }) {
  const where = [event.clientAddress, describeClient(event.userAgent)].filter(Boolean).join(' · ');
  const failed = event.type === 'sign-in-failed';
  return (
    <li className="border-b border-gray-100 py-3 last:border-b-0">
      <p className={`text-sm font-medium ${failed ? 'text-red-700' : 'text-ink'}`}>{describeActivity(event)}</p>
      <p className="mt-0.5 text-sm break-all text-muted">
        <time dateTime={event.at}>{dateFormat.format(new Date(event.at))}</time>
        {where && <span title={event.userAgent ?? undefined}> · {where}</span>}
      </p>
    </li>
  );
}

/**
 * The account's security log: sign-ins (failed ones too), password and app-password changes,
 * sharing changes and sign-outs everywhere, newest first, so the owner can spot what they did not do.
 */
export function RecentActivitySection() {
  const activity = useActivityQuery();
  const events = activity.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <div>
      <p className="border-b border-gray-100 py-4 text-sm text-muted">
        Sign-ins, password and app-password changes and sharing changes on your account, newest first. Kept for {ACTIVITY_LIMITS.keptDays}{' '}
        days. If you see something you did not do, change your password and sign out everywhere.
      </p>
      {activity.isPending && <Spinner className="m-8 size-8" label="Loading recent activity" />}
      {activity.isError && <FormError message="Could not load your recent activity" />}
      {activity.isSuccess && events.length === 0 && <p className="py-4 text-sm text-muted">No activity yet.</p>}
      {events.length > 0 && (
        <ul aria-label="Recent activity">
          {events.map((event) => (
            <ActivityRow key={event.id} event={event} />
          ))}
        </ul>
      )}
      {activity.hasNextPage && (
        <div className="py-4">
          <Button variant="secondary" disabled={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            {activity.isFetchingNextPage ? 'Loading…' : 'Show older'}
          </Button>
        </div>
      )}
    </div>
  );
}
