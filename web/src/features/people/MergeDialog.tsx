import { useState } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { toast } from '../notifications/toast';
import { FaceCrop } from './FaceCrop';
import type { Person } from './people.api';
import { PEOPLE_MESSAGES, personLabel, photoCount } from './people-messages';
import { useMergePeople, usePeople } from './people.queries';

function PersonChoice({ person, onChoose }: { person: Person; onChoose: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onChoose}
        className="flex w-full items-center gap-3 rounded-xl px-2 py-2 text-left hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <FaceCrop faceId={person.coverFaceId} className="size-12" />
        <span className="min-w-0">
          <span className={`block truncate text-sm font-medium ${person.name ? 'text-ink' : 'text-muted'}`}>
            {personLabel(person.name)}
          </span>
          <span className="block text-xs text-muted">{photoCount(person.photoCount)}</span>
        </span>
      </button>
    </li>
  );
}

function Picker({ person, onChoose }: { person: Person; onChoose: (other: Person) => void }) {
  const people = usePeople({ withHidden: true, enabled: true, polling: false });
  const others = (people.data ?? []).filter((other) => other.id !== person.id);
  if (people.isPending) return <Spinner className="m-6 size-8" label="Loading people" />;
  if (people.isError)
    return (
      <p role="alert" className="text-red-600">
        {PEOPLE_MESSAGES.loadError}
      </p>
    );
  if (others.length === 0) return <p>There is nobody else to merge with.</p>;
  return (
    <ul aria-label="People to merge with" className="-mx-2 max-h-80 overflow-y-auto">
      {others.map((other) => (
        <PersonChoice key={other.id} person={other} onChoose={() => onChoose(other)} />
      ))}
    </ul>
  );
}

/**
 * Picks another person and, once confirmed, merges them into this one: their faces and photos
 * become this person's, and their page is gone.
 */
export function MergeDialog({ person, onClose }: { person: Person; onClose: () => void }) {
  const [other, setOther] = useState<Person | null>(null);
  const merge = useMergePeople(person.id);

  if (!other) {
    return (
      <Dialog
        title={`Merge ${personLabel(person.name)} with…`}
        onClose={onClose}
        actions={
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
        }
      >
        <Picker person={person} onChoose={setOther} />
      </Dialog>
    );
  }

  const confirm = () =>
    merge.mutate(other.id, {
      onSuccess: () => {
        toast.success(PEOPLE_MESSAGES.merged);
        onClose();
      },
      onError: () => toast.error(PEOPLE_MESSAGES.notMerged),
    });
  return (
    <Dialog
      title="Merge these people?"
      onClose={onClose}
      icon={
        <span className="flex items-center gap-2">
          <FaceCrop faceId={other.coverFaceId} className="size-16" />
          <FaceCrop faceId={person.coverFaceId} className="size-16" />
        </span>
      }
      actions={
        <>
          <Button variant="text" onClick={() => setOther(null)} disabled={merge.isPending}>
            Back
          </Button>
          <Button onClick={confirm} disabled={merge.isPending}>
            Merge
          </Button>
        </>
      }
    >
      {`${other.name && person.name ? `${other.name} and ${person.name}` : 'The two'} will be one person, with the photos of both.`}
    </Dialog>
  );
}
