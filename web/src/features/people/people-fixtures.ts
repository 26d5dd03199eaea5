import type { FileDto } from '@nimbus/common';
import { makeFile } from '../../test/drive-fixtures';
import { onRequest } from '../../test/http-mock';
import type { Face, PeopleSettings, Person } from './people.api';

export const person = (id: string, overrides: Partial<Person> = {}): Person => ({
  id,
  name: null,
  hidden: false,
  faceCount: 2,
  photoCount: 2,
  coverFaceId: `face-${id}`,
  updatedAt: 1_700_000_000_000,
  ...overrides,
});

export const face = (id: string, fileId: string, personId: string | null): Face => ({
  id,
  fileId,
  personId,
  personName: null,
  box: { x: 0.25, y: 0.2, width: 0.3, height: 0.4 },
  score: 0.98,
});

export const photo = (id: string): FileDto =>
  makeFile(`${id}.jpg`, { _id: id, metadata: { contentType: 'image/jpeg', hasThumbnail: true, thumbnailID: `t-${id}` } });

export function answerSettings(settings: Partial<PeopleSettings> = {}): void {
  onRequest('GET', '/people-service/settings', { status: 200, data: { enabled: true, scannedPhotos: 12, pendingPhotos: 0, ...settings } });
}
