import type { ReactNode } from 'react';

/** A single card in the middle of the page, as on the account screens. */
export function CenteredCard({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-[420px] rounded-3xl bg-white px-6 py-9 shadow-sm ring-1 ring-gray-200 sm:px-10">{children}</div>
    </div>
  );
}
