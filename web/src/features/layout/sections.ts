export type Section = 'home' | 'media' | 'trash';

/** Which part of the drive a path belongs to, for search and highlighting. */
export function sectionOf(pathname: string): Section {
  if (pathname === '/media' || pathname.startsWith('/search-media/') || pathname === '/people' || pathname.startsWith('/people/')) {
    return 'media';
  }
  if (pathname === '/trash' || pathname.startsWith('/folder-trash/') || pathname.startsWith('/search-trash/')) return 'trash';
  return 'home';
}

const ROOTS: Record<Section, string> = { home: '/home', media: '/media', trash: '/trash' };
const SEARCH_PREFIXES: Record<Section, string> = { home: '/search/', media: '/search-media/', trash: '/search-trash/' };

/** A search goes to the search route of the current section; an empty one to the section's root. */
export function searchPathOf(section: Section, query: string): string {
  const text = query.trim();
  return text ? `${SEARCH_PREFIXES[section]}${encodeURIComponent(text)}` : ROOTS[section];
}
