import type { FileDto, FolderDto } from '@nimbus/common';
import { http } from '../../api/client';
import type { OrganizeItem } from '../../state/organize.slice';

type Ref = Pick<OrganizeItem, 'type' | 'id'>;

const service = (item: Ref) => (item.type === 'folder' ? '/folder-service' : '/file-service');
const refsOf = (items: readonly Ref[]) => items.map(({ type, id }) => ({ type, id }));

/** One item goes to the single call of its service (`/trash`), several to the -multi call (`/trash-multi`). */
function perItems(items: readonly Ref[], single: (item: Ref) => Promise<unknown>, multi: () => Promise<unknown>): Promise<void> {
  const [only] = items;
  return (items.length === 1 && only ? single(only) : multi()).then(() => undefined);
}

/** The organizing calls of the file and folder services. */
export const organizeApi = {
  createFolder: (name: string, parent: string) => http.post<FolderDto>('/folder-service/create', { name, parent }).then((r) => r.data),
  rename: (item: Ref, title: string) =>
    http.patch<FileDto | FolderDto>(`${service(item)}/rename`, { id: item.id, title }).then((r) => r.data),
  trash: (items: readonly Ref[]) =>
    perItems(
      items,
      (item) => http.patch(`${service(item)}/trash`, { id: item.id }),
      () => http.patch('/file-service/trash-multi', { items: refsOf(items) }),
    ),
  restore: (items: readonly Ref[]) =>
    perItems(
      items,
      (item) => http.patch(`${service(item)}/restore`, { id: item.id }),
      () => http.patch('/file-service/restore-multi', { items: refsOf(items) }),
    ),
  remove: (items: readonly Ref[]) =>
    perItems(
      items,
      (item) => http.delete(`${service(item)}/remove`, { data: { id: item.id } }),
      () => http.delete('/file-service/remove-multi', { data: { items: refsOf(items) } }),
    ),
  /** `multi` sends the move-multi call even for one item (a multi-selection of one). */
  move: (items: readonly Ref[], parentID: string, multi: boolean) => {
    const [only] = items;
    if (!multi && only) return http.patch(`${service(only)}/move`, { id: only.id, parentID }).then(() => undefined);
    return http.patch('/file-service/move-multi', { items: refsOf(items), parentID }).then(() => undefined);
  },
};
