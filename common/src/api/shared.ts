import { z } from 'zod';

/** Pieces the resource schemas share. */
export const SORT_ORDERS = ['date_asc', 'date_desc', 'alp_asc', 'alp_desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const id = z.string().min(1).max(64);
/** '/' or a folder id. */
export const parentRef = z.string().min(1).max(64);
