import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowBackIcon, PeopleIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { FaceCrop } from './FaceCrop';
import type { Person } from './people.api';
import { PEOPLE_MESSAGES, personLabel, photoCount, scanProgress } from './people-messages';
import { usePeople, usePeopleSettings } from './people.queries';

function PersonCard({ person }: { person: Person }) {
  return (
    <li>
      <Link
        to={`/people/${encodeURIComponent(person.id)}`}
        aria-label={personLabel(person.name)}
        className="flex flex-col items-center gap-2 rounded-2xl p-3 text-center outline-none hover:bg-black/5 focus-visible:ring-2 focus-visible:ring-primary"
        data-testid="person-card"
      >
        <FaceCrop faceId={person.coverFaceId} className={`size-28 sm:size-32 ${person.hidden ? 'opacity-50' : ''}`} />
        <span className={`max-w-full truncate text-sm font-medium ${person.name ? 'text-ink' : 'text-primary'}`}>
          {personLabel(person.name)}
        </span>
        <span className="text-xs text-muted">
          {photoCount(person.photoCount)}
          {person.hidden && ` · ${PEOPLE_MESSAGES.hidden}`}
        </span>
      </Link>
    </li>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 py-16 text-center">
      <PeopleIcon className="size-14 text-gray-300" />
      {children}
    </div>
  );
}

function PeopleOff() {
  return (
    <Notice>
      <p className="text-base text-ink">{PEOPLE_MESSAGES.off}</p>
      <p className="max-w-sm text-sm text-muted">{PEOPLE_MESSAGES.offHint}</p>
      <Link to="/settings" state={{ tab: 'people' }} className="text-sm font-medium text-primary hover:underline">
        {PEOPLE_MESSAGES.openSettings}
      </Link>
    </Notice>
  );
}

function PeopleGrid({ polling }: { polling: boolean }) {
  const [showHidden, setShowHidden] = useState(false);
  const people = usePeople({ withHidden: showHidden, enabled: true, polling });
  const shown = people.data ?? [];
  return (
    <>
      <div className="mb-2 flex justify-end">
        <label className="flex cursor-pointer items-center gap-2 text-sm text-ink">
          <input
            type="checkbox"
            checked={showHidden}
            onChange={(event) => setShowHidden(event.target.checked)}
            className="size-4 accent-primary"
          />
          {PEOPLE_MESSAGES.showHidden}
        </label>
      </div>
      {people.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-10" label="Loading people" />
        </div>
      ) : people.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-red-600">
          {PEOPLE_MESSAGES.loadError}
        </p>
      ) : shown.length === 0 ? (
        <Notice>
          <p className="max-w-sm text-base text-muted">{PEOPLE_MESSAGES.empty}</p>
        </Notice>
      ) : (
        <ul
          aria-label="People"
          className="grid grid-cols-[repeat(auto-fill,minmax(136px,1fr))] gap-2 sm:grid-cols-[repeat(auto-fill,minmax(160px,1fr))]"
        >
          {shown.map((person) => (
            <PersonCard key={person.id} person={person} />
          ))}
        </ul>
      )}
    </>
  );
}

/** /people: everyone found in the account's photos, each with a face, a name and how many photos show them. */
export function PeoplePage() {
  const settings = usePeopleSettings();
  const progress = settings.data?.enabled && settings.data.pendingPhotos > 0 ? settings.data : null;
  return (
    <section className="flex min-h-full flex-col p-3 sm:p-6" data-testid="people-page">
      <div className="mb-4 flex items-center gap-2">
        <Link
          to="/media"
          aria-label="Back to Media"
          title="Media"
          className="flex size-10 items-center justify-center rounded-full text-muted hover:bg-black/5"
        >
          <ArrowBackIcon className="size-5" />
        </Link>
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-normal text-ink">{PEOPLE_MESSAGES.title}</h1>
          {progress && <p className="text-sm text-muted">{scanProgress(progress.scannedPhotos, progress.pendingPhotos)}</p>}
        </div>
      </div>
      {settings.isPending ? (
        <div className="flex flex-1 items-center justify-center py-16">
          <Spinner className="size-10" label="Loading people" />
        </div>
      ) : settings.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-red-600">
          {PEOPLE_MESSAGES.loadError}
        </p>
      ) : settings.data.enabled ? (
        <PeopleGrid polling={progress !== null} />
      ) : (
        <PeopleOff />
      )}
    </section>
  );
}
