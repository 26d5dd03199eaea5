import { CloudIcon } from './icons';

interface LogoProps {
  showName?: boolean;
  className?: string;
}

export function Logo({ showName = true, className = '' }: LogoProps) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <span className="flex size-9 items-center justify-center rounded-xl bg-primary text-white shadow-sm">
        <CloudIcon className="size-6" />
      </span>
      {showName && <span className="text-[22px] font-medium tracking-tight text-ink">Nimbus</span>}
    </span>
  );
}
