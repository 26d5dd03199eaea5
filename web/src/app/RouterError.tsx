import { APP_MESSAGES } from '@nimbus/common';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorIcon } from '../components/icons';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return '';
}

/** The router's error screen. */
export function RouterError() {
  const detail = describe(useRouteError());
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-surface p-6 text-center">
      <ErrorIcon className="size-14 text-red-600" />
      <h1 className="text-2xl font-medium text-ink">{APP_MESSAGES.unexpectedError}</h1>
      {detail && <p className="max-w-lg text-sm break-words text-muted">{detail}</p>}
      <div className="flex gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="h-10 rounded-full bg-primary px-5 text-sm font-medium text-white hover:bg-primary-hover"
        >
          Reload
        </button>
        <a href="/" className="flex h-10 items-center rounded-full px-5 text-sm font-medium text-primary hover:bg-blue-50">
          Go to start
        </a>
      </div>
    </div>
  );
}
