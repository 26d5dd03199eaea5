import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ApiError } from '../../api/api-error';
import { sharedKeys } from '../../api/query-keys';
import { unlockSharedLink } from '../../api/share-links.api';
import { Button } from '../../components/Button';
import { KeyIcon } from '../../components/icons';

function reason(error: ApiError): string {
  if (error.status === 429) return 'Too many wrong passwords. Try again later.';
  if (error.code === 'WRONG_PASSWORD') return 'Wrong password';
  return error.message;
}

/** A link protected by a password asks for it before it shows anything. */
export function PasswordForm({ token }: { token: string }) {
  const client = useQueryClient();
  const inputId = useId();
  const [password, setPassword] = useState('');
  const unlock = useMutation<Awaited<ReturnType<typeof unlockSharedLink>>, ApiError>({
    mutationFn: () => unlockSharedLink(token, password),
    onSuccess: (info) => {
      client.setQueryData(sharedKeys.info(token), info);
      void client.invalidateQueries({ queryKey: sharedKeys.all(token) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) unlock.mutate();
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Unlock link">
      <div className="flex flex-col items-center gap-2 text-center">
        <KeyIcon className="size-10 text-primary" />
        <h1 className="text-lg font-medium text-ink">This link is protected</h1>
        <p className="text-sm text-muted">Enter the password you were given to open it.</p>
      </div>
      <label htmlFor={inputId} className="text-sm font-medium text-ink">
        Password
      </label>
      <input
        id={inputId}
        type="password"
        autoFocus
        autoComplete="off"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        className="h-11 rounded-lg border border-gray-300 px-3 text-[15px] outline-none focus:border-primary focus:ring-2 focus:ring-primary/20"
      />
      {unlock.error && (
        <p role="alert" className="text-sm text-red-600">
          {reason(unlock.error)}
        </p>
      )}
      <Button type="submit" disabled={!password || unlock.isPending}>
        Open
      </Button>
    </form>
  );
}
