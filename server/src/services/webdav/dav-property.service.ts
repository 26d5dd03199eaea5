import type { Db } from '../../db/database.js';
import { DavRepository, type DavPropertyRow, type DavPropertySize } from '../../db/repositories/dav.repository.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { DavError } from '../../domain/dav-error.js';

export type { DavPropertyRow, DavPropertySize } from '../../db/repositories/dav.repository.js';

export const MAX_DEAD_PROPERTIES = 256;

/** One PROPPATCH instruction: set (with its serialized value) or remove one dead property. */
export interface PropertyOperation {
  set: boolean;
  ns: string;
  local: string;
  value: string;
}

/** Dead properties of WebDAV items: arbitrary XML values clients keep on files and folders. */
export class DavPropertyService {
  constructor(
    private readonly db: Db,
    private readonly uow: UnitOfWork,
  ) {}

  /** Names and value sizes by item, for a page of items at once. */
  sizes(itemIds: string[]): Promise<Map<string, DavPropertySize[]>> {
    return new DavRepository(this.db).propertySizes(itemIds);
  }

  /** The values of these properties, by item. */
  values(keys: DavPropertySize[]): Promise<Map<string, DavPropertyRow[]>> {
    return new DavRepository(this.db).propertyValues(keys);
  }

  /** All operations or none: 507 when the item would hold more than its share of properties. */
  async patch(ownerId: string, itemId: string, operations: PropertyOperation[]): Promise<void> {
    await this.uow.run(async (r) => {
      const repo = new DavRepository(r.db);
      for (const op of operations) {
        if (op.set) await repo.setProperty({ itemId, ownerId, namespace: op.ns, name: op.local, value: op.value });
        else await repo.removeProperty(itemId, op.ns, op.local);
      }
      if ((await repo.countProperties(itemId)) > MAX_DEAD_PROPERTIES)
        throw new DavError(507, `At most ${MAX_DEAD_PROPERTIES} properties per item`);
    });
  }

  copy(fromId: string, toId: string): Promise<void> {
    return new DavRepository(this.db).copyProperties(fromId, toId);
  }
}
