import { BrokenImageIcon } from '../../components/file-icons';

export function PreviewError({ message }: { message: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl bg-white/10 px-8 py-6 text-white">
      <BrokenImageIcon className="size-12 text-white/70" />
      <p className="text-base">{message}</p>
    </div>
  );
}
