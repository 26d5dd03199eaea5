import type { AuthMode } from './auth-modes';

interface AuthLinksProps {
  mode: AuthMode;
  onSwitch: (mode: AuthMode) => void;
}

const linkClass = 'rounded text-sm font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-primary';

/** Login: "Forgot?" and "Create account"; the other modes: "Back to Login". */
export function AuthLinks({ mode, onSwitch }: AuthLinksProps) {
  if (mode !== 'login') {
    return (
      <div className="mt-4">
        <button type="button" className={linkClass} onClick={() => onSwitch('login')}>
          Back to Login
        </button>
      </div>
    );
  }
  return (
    <div className="mt-4 flex items-center justify-between">
      <button type="button" className={linkClass} onClick={() => onSwitch('reset')}>
        Forgot?
      </button>
      <button type="button" className={linkClass} onClick={() => onSwitch('create')}>
        Create account
      </button>
    </div>
  );
}
