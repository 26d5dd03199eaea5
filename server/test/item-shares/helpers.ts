import type { ItemShareDto, ShareRole } from '@nimbus/common';
import { expect } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';

export async function share(
  owner: TestBrowser,
  itemType: 'file' | 'folder',
  itemId: string,
  email: string,
  role: ShareRole,
): Promise<ItemShareDto> {
  const response = await owner.post('/item-share-service/shares', { itemType, itemId, email, role });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<ItemShareDto>();
}

export const TUS = { 'tus-resumable': '1.0.0' };
export const tusMeta = (filename: string, parent: string) =>
  `filename ${Buffer.from(filename).toString('base64')},parent ${Buffer.from(parent).toString('base64')}`;
