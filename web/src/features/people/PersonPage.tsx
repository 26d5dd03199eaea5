import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-error';
import { Button } from '../../components/Button';
import { ArrowBackIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { toast } from '../notifications/toast';
import { FaceCrop } from './FaceCrop';
import { MergeDialog } from './MergeDialog';
import type { Person } from './people.api';
import { PEOPLE_MESSAGES, photoCount } from './people-messages';
import { usePerson, useUpdatePerson } from './people.queries';
import { PersonName } from './PersonName';
import { PersonPhotos } from './PersonPhotos';

function PersonActions({ person }: { person: Person }) {
  const [merging, setMerging] = useState(false);
  const update = useUpdatePerson(person.id);
  const toggleHidden = () => update.mutate({ hidden: !person.hidden }, { onError: () => toast.error(PEOPLE_MESSAGES.notChanged) });
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => setMerging(true)}>
        {PEOPLE_MESSAGES.merge}
      </Button>
      <Button variant="secondary" onClick={toggleHidden} disabled={update.isPending}>
        {person.hidden ? PEOPLE_MESSAGES.show : PEOPLE_MESSAGES.hide}
      </Button>
      {merging && <MergeDialog person={person} onClose={() => setMerging(false)} />}
    </div>
  );
}

function PersonHeader({ person }: { person: Person }) {
  return (
    <div className="mb-6 flex flex-wrap items-center gap-4">
      <FaceCrop faceId={person.coverFaceId} className="size-20 sm:size-24" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <PersonName person={person} />
        <p className="px-1 text-sm text-muted">
          {photoCount(person.photoCount)}
          {person.hidden && ` · ${PEOPLE_MESSAGES.hidden}`}
        </p>
      </div>
      <PersonActions person={person} />
    </div>
  );
}

/** /people/{id}: one person's face, name and photos, with rename, merge, hide and "not this person". */
export function PersonPage({ personId }: { personId: string }) {
  const person = usePerson(personId);
  return (
    <section className="flex min-h-full flex-col p-3 sm:p-6" data-testid="person-page">
      <Link
        to="/people"
        aria-label="Back to People"
        title={PEOPLE_MESSAGES.title}
        className="mb-2 flex size-10 items-center justify-center rounded-full text-muted hover:bg-black/5"
      >
        <ArrowBackIcon className="size-5" />
      </Link>
      {person.isPending ? (
        <div className="flex flex-1 items-center justify-center py-16">
          <Spinner className="size-10" label="Loading person" />
        </div>
      ) : person.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-red-600">
          {person.error instanceof ApiError && person.error.code === 'PERSON_NOT_FOUND'
            ? PEOPLE_MESSAGES.personGone
            : PEOPLE_MESSAGES.personLoadError}
        </p>
      ) : (
        <>
          <PersonHeader person={person.data} />
          <PersonPhotos person={person.data} />
        </>
      )}
    </section>
  );
}
