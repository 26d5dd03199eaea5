import { SSO_ERROR_MESSAGES, SSO_ERRORS, type SsoError } from '@nimbus/common';
import { useSearchParams } from 'react-router';
import { getBrowserId } from '../../api/browser-id';
import { useSignInOptions } from '../../api/sign-in-options.queries';

const isSsoError = (code: string | null): code is SsoError => (SSO_ERRORS as readonly string[]).includes(code ?? '');

/**
 * "Sign in with …" under the login form when the server has an identity provider, and why the
 * last single sign-on failed (the server sends the browser back with `?sso_error=`).
 */
export function SsoSignIn() {
  const { data } = useSignInOptions();
  const [params] = useSearchParams();
  const code = params.get('sso_error');
  const failure = isSsoError(code) ? SSO_ERROR_MESSAGES[code] : null;
  if (!data?.sso && !failure) return null;
  // A navigation carries no header: the browser id goes along in the address, so the session is bound to it.
  const href = data?.sso ? `${data.sso.url}?uuid=${encodeURIComponent(getBrowserId())}` : null;
  return (
    <div className="mt-2 space-y-2">
      {href && data?.sso && (
        <a
          href={href}
          className="inline-flex h-10 w-full items-center justify-center rounded-full border border-gray-300 bg-white px-5 text-sm font-medium text-primary transition-colors hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          {data.sso.label}
        </a>
      )}
      {failure && (
        <p role="alert" className="text-center text-sm text-red-700">
          {failure}
        </p>
      )}
    </div>
  );
}
