/** Words too common to help retrieval; removed from queries and never worth an index hit. */
export const STOP_WORDS = new Set(
  (
    'a an and any are as at be by can do does for from get give had has have i in into is it its me my mine of ' +
    'on or our out show that the their them these this those to was we were what where which with you your ' +
    'all find look looking some about please'
  ).split(' '),
);

/**
 * Splits a file or folder name into words: separators, camelCase and letter/digit boundaries
 * ("IMG_2041", "taxReturn2024.pdf" → img 2041 / tax return 2024 pdf).
 */
export function nameWords(name: string): string[] {
  const spaced = name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\d)/gu, '$1 $2')
    .replace(/(\d)(\p{L})/gu, '$1 $2');
  return words(spaced);
}

/** Lower-cased words of letters and digits, apostrophes dropped ("driver's" → drivers). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/['’]/g, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The first `limit` words of a text, whitespace normalized. */
export function firstWords(text: string, limit: number): string {
  const parts = text.split(/\s+/).filter(Boolean);
  return parts.slice(0, limit).join(' ');
}
