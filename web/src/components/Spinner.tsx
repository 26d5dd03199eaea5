interface SpinnerProps {
  className?: string;
  label?: string;
}

export function Spinner({ className = 'size-8', label = 'Loading' }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className={`inline-block ${className}`}>
      <span className="block size-full animate-spin rounded-full border-[3px] border-primary/20 border-t-primary" />
    </span>
  );
}

/** Covers the page while something the whole screen depends on is loading. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex h-full min-h-dvh items-center justify-center bg-surface" data-testid="full-page-spinner">
      <Spinner className="size-12" label={label} />
    </div>
  );
}
