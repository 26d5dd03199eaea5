/** The search dropdown's messages; their wording is part of the product, word for word. */
export const SEARCH_MESSAGES = {
  noResults: 'No Results',
  thinking: 'Thinking...',
  analyzing: 'AI is analyzing your query for the best matches',
  bestMatches: 'Best matches found',
  noAiResults: 'No AI Results',
} as const;
