import { CenteredCard } from '../components/CenteredCard';
import { Logo } from '../components/Logo';

/** The public download page; its file details and download button come with file sharing. */
export function Component() {
  return (
    <CenteredCard>
      <div className="flex flex-col items-center gap-4 text-center">
        <Logo />
        <h1 className="text-2xl font-normal text-ink">Shared file</h1>
        <div data-testid="content-placeholder" className="w-full rounded-2xl border-2 border-dashed border-gray-200 p-8 text-sm text-muted">
          File details will appear here.
        </div>
      </div>
    </CenteredCard>
  );
}
