import { Link } from 'react-router';
import { CenteredCard } from '../components/CenteredCard';
import { Logo } from '../components/Logo';

export function Component() {
  return (
    <CenteredCard>
      <div className="flex flex-col items-center gap-4 text-center">
        <Logo />
        <h1 className="text-2xl font-normal text-ink">Page not found</h1>
        <p className="text-sm text-muted">The address you opened does not exist.</p>
        <Link to="/" className="text-sm font-medium text-primary hover:underline">
          Go to start
        </Link>
      </div>
    </CenteredCard>
  );
}
