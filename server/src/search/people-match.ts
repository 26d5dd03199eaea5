/**
 * Named people of one account, for questions such as "Anna at the beach" (implemented in
 * server/src/people). Only the account's own named, visible people match, and only while the
 * account has people turned on: a person's name never reaches anyone else's search.
 */
export interface PeopleMatcher {
  /**
   * The people whose whole name appears among the query's terms (case-insensitive): the terms
   * their names used up, and the ids of the files that show every one of them (newest first).
   * Null when the query names nobody.
   */
  match(ownerId: string, terms: string[]): Promise<{ terms: string[]; fileIds: string[] } | null>;
}
