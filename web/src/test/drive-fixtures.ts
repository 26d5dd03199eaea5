import type { FileDto, FolderDto } from '@nimbus/common';
import { onRequest, type RecordedRequest } from './http-mock';

let counter = 0;

export function makeFile(
  filename: string,
  overrides: Omit<Partial<FileDto>, 'metadata'> & { metadata?: Partial<FileDto['metadata']> } = {},
): FileDto {
  counter++;
  const { metadata, ...rest } = overrides;
  return {
    _id: `file-${counter}`,
    filename,
    length: 1536,
    uploadDate: new Date(2025, 0, 5, 15, 7).toISOString(),
    ...rest,
    metadata: {
      owner: 'user-1',
      parent: '/',
      size: 1536,
      contentType: 'application/octet-stream',
      hasThumbnail: false,
      thumbnailID: '',
      isVideo: false,
      trashed: false,
      ...metadata,
    },
  };
}

export function makeFolder(name: string, overrides: Partial<FolderDto> = {}): FolderDto {
  counter++;
  return {
    _id: `folder-${counter}`,
    name,
    parent: '/',
    owner: 'user-1',
    createdAt: new Date(2024, 11, 31, 9, 0).toISOString(),
    updatedAt: new Date(2024, 11, 31, 9, 0).toISOString(),
    trashed: false,
    ...overrides,
  };
}

interface Drive {
  folders?: FolderDto[] | ((request: RecordedRequest) => FolderDto[]);
  files?: FileDto[] | ((request: RecordedRequest) => FileDto[]);
  quick?: FileDto[];
  info?: FolderDto[];
}

const answer = <T>(value: T[] | ((request: RecordedRequest) => T[]) | undefined, request: RecordedRequest) =>
  ({ status: 200, data: typeof value === 'function' ? value(request) : (value ?? []) }) as const;

/** Answers the list calls of the file browser from fixed data. */
export function mockDrive(drive: Drive = {}): void {
  onRequest('GET', '/folder-service/list', (request) => answer(drive.folders, request));
  onRequest('GET', '/file-service/list', (request) => answer(drive.files, request));
  onRequest('GET', '/file-service/quick-list', { status: 200, data: drive.quick ?? [] });
  for (const folder of drive.info ?? []) onRequest('GET', `/folder-service/info/${folder._id}`, { status: 200, data: folder });
}
