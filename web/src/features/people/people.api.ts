import type { FileDto } from '@nimbus/common';
import { http } from '../../api/client';

/** One person of the account: the faces the server grouped together, and the name the owner gave. */
export interface Person {
  id: string;
  name: string | null;
  hidden: boolean;
  faceCount: number;
  photoCount: number;
  coverFaceId: string | null;
  updatedAt: number;
}

/** A face found in a photo; its box is in fractions of the upright picture. */
export interface Face {
  id: string;
  fileId: string;
  personId: string | null;
  personName: string | null;
  box: { x: number; y: number; width: number; height: number };
  score: number;
}

/** Whether the account looks for people in its photos, and how far that has come. */
export interface PeopleSettings {
  enabled: boolean;
  scannedPhotos: number;
  pendingPhotos: number;
}

export interface PersonChanges {
  name?: string | null;
  hidden?: boolean;
}

export interface PersonFilesPage {
  files: FileDto[];
  nextCursor: string | null;
}

/** A person's photos are asked for this many at a time. */
export const PERSON_FILES_PAGE_SIZE = 100;

const personPath = (id: string) => `/people-service/people/${encodeURIComponent(id)}`;

export const peopleApi = {
  settings: () => http.get<PeopleSettings>('/people-service/settings').then((r) => r.data),
  updateSettings: (enabled: boolean) => http.put<PeopleSettings>('/people-service/settings', { enabled }).then((r) => r.data),
  list: (includeHidden: boolean) =>
    http.get<{ people: Person[] }>('/people-service/people', { params: includeHidden ? { hidden: true } : {} }).then((r) => r.data.people),
  person: (id: string) => http.get<Person>(personPath(id)).then((r) => r.data),
  update: (id: string, changes: PersonChanges) => http.patch<Person>(personPath(id), changes).then((r) => r.data),
  /** `otherId` goes into `id`, which is kept. */
  merge: (id: string, otherId: string) => http.post<Person>(`${personPath(id)}/merge`, { personId: otherId }).then((r) => r.data),
  files: (id: string, cursor: string | undefined) =>
    http.get<PersonFilesPage>(`${personPath(id)}/files`, { params: { limit: PERSON_FILES_PAGE_SIZE, cursor } }).then((r) => r.data),
  faces: (id: string) => http.get<{ faces: Face[] }>(`${personPath(id)}/faces`).then((r) => r.data.faces),
  removeFace: (id: string, faceId: string) => http.delete(`${personPath(id)}/faces/${encodeURIComponent(faceId)}`).then(() => undefined),
};

export const faceCropUrl = (faceId: string) => `/people-service/faces/${encodeURIComponent(faceId)}/crop`;
