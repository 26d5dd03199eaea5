import {
  PERSON_FILES_MAX,
  type FaceDto,
  type FaceListDto,
  type PeopleSettingsDto,
  type PersonDto,
  type PersonFilesDto,
  type PersonListDto,
  type PersonUpdateRequest,
} from '@nimbus/common';
import { http } from '../../api/client';

export type Person = PersonDto;
export type Face = FaceDto;
export type PeopleSettings = PeopleSettingsDto;
export type PersonChanges = PersonUpdateRequest;
export type PersonFilesPage = PersonFilesDto;

/** A person's photos are asked for this many at a time. */
export const PERSON_FILES_PAGE_SIZE = PERSON_FILES_MAX;

const personPath = (id: string) => `/people-service/people/${encodeURIComponent(id)}`;

export const peopleApi = {
  settings: () => http.get<PeopleSettings>('/people-service/settings').then((r) => r.data),
  updateSettings: (enabled: boolean) => http.put<PeopleSettings>('/people-service/settings', { enabled }).then((r) => r.data),
  /** The visible people, or (`hidden`) the hidden ones. */
  list: (hidden: boolean) =>
    http.get<PersonListDto>('/people-service/people', { params: hidden ? { hidden: true } : {} }).then((r) => r.data.people),
  person: (id: string) => http.get<Person>(personPath(id)).then((r) => r.data),
  update: (id: string, changes: PersonChanges) => http.patch<Person>(personPath(id), changes).then((r) => r.data),
  /** `otherId` goes into `id`, which is kept. */
  merge: (id: string, otherId: string) => http.post<Person>(`${personPath(id)}/merge`, { personId: otherId }).then((r) => r.data),
  files: (id: string, cursor: string | undefined) =>
    http.get<PersonFilesPage>(`${personPath(id)}/files`, { params: { limit: PERSON_FILES_PAGE_SIZE, cursor } }).then((r) => r.data),
  faces: (id: string) => http.get<FaceListDto>(`${personPath(id)}/faces`).then((r) => r.data.faces),
  removeFace: (id: string, faceId: string) => http.delete(`${personPath(id)}/faces/${encodeURIComponent(faceId)}`).then(() => undefined),
};

export const faceCropUrl = (faceId: string) => `/people-service/faces/${encodeURIComponent(faceId)}/crop`;
