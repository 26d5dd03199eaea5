import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { ArrowBackIcon } from './icons';

export interface SidebarSection<Id extends string> {
  id: Id;
  label: string;
  icon: ComponentType<{ className?: string }>;
}

interface SectionSidebarProps<Id extends string> {
  /** The navigation's accessible name. */
  label: string;
  sections: readonly SidebarSection<Id>[];
  current: Id;
  onSelect: (id: Id) => void;
}

const item = 'flex h-10 items-center gap-3 rounded-full px-4 text-sm font-medium whitespace-nowrap';

/** A HOME link and a page's sections (Settings, the admin area): a column beside the page, a row of tabs on small screens. */
export function SectionSidebar<Id extends string>({ label, sections, current, onSelect }: SectionSidebarProps<Id>) {
  return (
    <nav aria-label={label} className="flex gap-1 overflow-x-auto px-3 pb-2 md:w-64 md:shrink-0 md:flex-col md:overflow-visible md:pt-2">
      <Link to="/home" className={`${item} text-primary hover:bg-black/5`}>
        <ArrowBackIcon className="size-5" /> HOME
      </Link>
      {sections.map(({ id, label: name, icon: Icon }) => (
        <button
          key={id}
          type="button"
          aria-current={current === id ? 'page' : undefined}
          onClick={() => onSelect(id)}
          className={`${item} ${current === id ? 'bg-selected text-[#001d35]' : 'text-ink hover:bg-black/5'}`}
        >
          <Icon className="size-5" /> {name}
        </button>
      ))}
    </nav>
  );
}
