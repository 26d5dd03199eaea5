import type { ContentAuthorDto, FileVersionDto, FileVersionListDto } from '@nimbus/common';
import type { AuthorView, VersionList, VersionView } from '../../../services/versions/file-version.service.js';

function presentAuthor(author: AuthorView): ContentAuthorDto {
  return {
    account: author.accountId !== null && author.email !== null ? { id: author.accountId, email: author.email } : null,
    via: author.via,
  };
}

function presentVersion({ row, author }: VersionView): FileVersionDto {
  return {
    id: row.id,
    size: row.size,
    sha256: row.sha256,
    contentType: row.contentType,
    createdAt: new Date(row.uploadedAt).toISOString(),
    replacedAt: new Date(row.replacedAt).toISOString(),
    author: presentAuthor(author),
  };
}

export function presentVersionList(list: VersionList): FileVersionListDto {
  const { file } = list;
  return {
    current: {
      size: file.size,
      sha256: file.sha256,
      contentType: file.contentType,
      createdAt: new Date(file.uploadedAt).toISOString(),
      author: presentAuthor(list.currentAuthor),
    },
    versions: list.versions.map(presentVersion),
  };
}
