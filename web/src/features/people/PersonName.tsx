import { PERSON_NAME_MAX } from '@nimbus/common';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { toast } from '../notifications/toast';
import type { Person } from './people.api';
import { PEOPLE_MESSAGES, personLabel } from './people-messages';
import { useUpdatePerson } from './people.queries';

interface NameFieldProps {
  initial: string;
  busy: boolean;
  onSave: (value: string) => void;
  onCancel: () => void;
}

function NameField({ initial, busy, onSave, onCancel }: NameFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(initial);

  useEffect(() => input.current?.select(), []);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSave(value);
    } else if (event.key === 'Escape') {
      // Taken here, so the page does not also clear its selection.
      event.preventDefault();
      onCancel();
    }
  };

  return (
    <input
      ref={input}
      autoFocus
      aria-label="Name"
      placeholder={PEOPLE_MESSAGES.addName}
      value={value}
      maxLength={PERSON_NAME_MAX}
      readOnly={busy}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => !busy && onCancel()}
      className="h-11 w-full max-w-md rounded-lg border border-gray-300 bg-white px-3 text-2xl text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20"
    />
  );
}

/** The person's name as the page's heading; a click turns it into a field (Enter saves, Escape cancels). */
export function PersonName({ person }: { person: Person }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdatePerson(person.id);

  const save = (value: string) => {
    // An empty name takes the name away: the person is "Add a name" again.
    const name = value.trim() || null;
    if (name === person.name) return setEditing(false);
    update.mutate(
      { name },
      {
        onSuccess: () => {
          toast.success(PEOPLE_MESSAGES.nameSaved);
          setEditing(false);
        },
        onError: () => toast.error(PEOPLE_MESSAGES.nameNotSaved),
      },
    );
  };

  if (editing) {
    return <NameField initial={person.name ?? ''} busy={update.isPending} onSave={save} onCancel={() => setEditing(false)} />;
  }
  return (
    <h1 className="min-w-0 text-2xl font-normal">
      <button
        type="button"
        title="Rename"
        onClick={() => setEditing(true)}
        className={`max-w-full truncate rounded-lg px-1 text-left hover:bg-black/5 ${person.name ? 'text-ink' : 'text-primary'}`}
      >
        {personLabel(person.name)}
      </button>
    </h1>
  );
}
