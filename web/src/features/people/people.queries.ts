import type { FileDto } from '@nimbus/common';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { fileKeys, peopleKeys } from '../../api/query-keys';
import { peopleApi, type PersonChanges, type PersonFilesPage } from './people.api';

/** A person's photos live among the file lists, so the preview pages through them and file changes refresh them. */
export const personFilesKey = (personId: string) => fileKeys.list({ view: 'person', personId });

/** While photos wait to be looked at, the setting and the people are read again this often. */
export const PEOPLE_POLL_MS = 5000;

export function usePeopleSettings() {
  return useQuery({
    queryKey: peopleKeys.settings(),
    queryFn: peopleApi.settings,
    retry: false,
    refetchInterval: (query) => (query.state.data?.enabled && query.state.data.pendingPhotos > 0 ? PEOPLE_POLL_MS : false),
  });
}

export function useUpdatePeopleSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: peopleApi.updateSettings,
    onSuccess: (settings) => queryClient.setQueryData(peopleKeys.settings(), settings),
    // Turning people off deletes every face and name; turning them on starts finding them again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

/** The last photos' faces may be grouped after the last poll: read the people once more when the waiting ends. */
function useRefetchWhenScanEnds(polling: boolean) {
  const queryClient = useQueryClient();
  const wasPolling = useRef(polling);
  useEffect(() => {
    if (wasPolling.current && !polling) void queryClient.invalidateQueries({ queryKey: [...peopleKeys.all, 'list'] });
    wasPolling.current = polling;
  }, [polling, queryClient]);
}

/** The visible people, followed by the hidden ones when `withHidden`. */
export function usePeople({ withHidden, enabled, polling }: { withHidden: boolean; enabled: boolean; polling: boolean }) {
  const refetchInterval = polling ? PEOPLE_POLL_MS : false;
  useRefetchWhenScanEnds(polling);
  const visible = useQuery({
    queryKey: peopleKeys.list(false),
    queryFn: () => peopleApi.list(false),
    enabled,
    retry: false,
    refetchInterval,
  });
  const hidden = useQuery({
    queryKey: peopleKeys.list(true),
    queryFn: () => peopleApi.list(true),
    enabled: enabled && withHidden,
    retry: false,
    refetchInterval,
  });
  // The visible people show at once; the hidden ones join them when they arrive.
  return {
    data: visible.data && [...visible.data, ...(withHidden ? (hidden.data ?? []) : [])],
    isPending: visible.isPending,
    isError: visible.isError || (withHidden && hidden.isError),
  };
}

export function usePerson(personId: string) {
  return useQuery({ queryKey: peopleKeys.person(personId), queryFn: () => peopleApi.person(personId), retry: false });
}

export function usePersonFaces(personId: string) {
  return useQuery({ queryKey: peopleKeys.faces(personId), queryFn: () => peopleApi.faces(personId), retry: false });
}

export function usePersonFiles(personId: string) {
  return useInfiniteQuery({
    queryKey: personFilesKey(personId),
    queryFn: ({ pageParam }) => peopleApi.files(personId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage: PersonFilesPage) => lastPage.nextCursor ?? undefined,
    retry: false,
  });
}

export function useUpdatePerson(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: PersonChanges) => peopleApi.update(personId, changes),
    onSuccess: (person) => {
      queryClient.setQueryData(peopleKeys.person(personId), person);
      void queryClient.invalidateQueries({ queryKey: [...peopleKeys.all, 'list'] });
    },
  });
}

/** Merges the chosen person into the one kept; the other's page and faces are gone afterwards. */
export function useMergePeople(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (otherId: string) => peopleApi.merge(personId, otherId),
    onSuccess: (person, otherId) => {
      queryClient.setQueryData(peopleKeys.person(personId), person);
      queryClient.removeQueries({ queryKey: peopleKeys.person(otherId) });
      queryClient.removeQueries({ queryKey: personFilesKey(otherId) });
      void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
      void queryClient.invalidateQueries({ queryKey: personFilesKey(personId) });
    },
  });
}

const withoutFile = (data: InfiniteData<PersonFilesPage> | undefined, fileId: string) =>
  data && {
    ...data,
    pages: data.pages.map((page) => ({ ...page, files: page.files.filter((file: FileDto) => file._id !== fileId) })),
  };

/** Takes the person's faces in one photo away from them; the photo leaves their page at once. */
export function useRemoveFaces(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ faceIds }: { fileId: string; faceIds: string[] }) => {
      for (const faceId of faceIds) await peopleApi.removeFace(personId, faceId);
    },
    onSuccess: (_, { fileId }) => {
      queryClient.setQueryData<InfiniteData<PersonFilesPage>>(personFilesKey(personId), (data) => withoutFile(data, fileId));
      void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: peopleKeys.faces(personId) }),
  });
}
