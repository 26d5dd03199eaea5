import type { LoginResponse, PasskeyDto } from '@nimbus/common';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from './client';

const passkeyKeys = { all: ['passkeys'] as const };

/** What `/passkey-service/registration/options` asks before a passkey is added. */
export interface AddPasskeyProof {
  password?: string;
  code?: string;
}

/** The /passkey-service calls; the browser's WebAuthn prompts go through @simplewebauthn/browser. */
export const passkeysApi = {
  list: () => http.get<PasskeyDto[]>('/passkey-service/passkeys').then((r) => r.data),
  /**
   * Asks the browser for a new passkey (it prompts), then registers it under `name`. The server asks
   * first for proof the user knows a factor: the password, or a two-factor code (none without a password).
   */
  add: async ({ name, proof }: { name: string; proof: AddPasskeyProof }) => {
    const { data: optionsJSON } = await http.post<PublicKeyCredentialCreationOptionsJSON>('/passkey-service/registration/options', proof);
    const response = await startRegistration({ optionsJSON });
    return (await http.post<PasskeyDto>('/passkey-service/registration/verify', { name, response })).data;
  },
  rename: ({ id, name }: { id: string; name: string }) =>
    http.patch<PasskeyDto>(`/passkey-service/passkeys/${encodeURIComponent(id)}`, { name }).then((r) => r.data),
  remove: (id: string) => http.delete(`/passkey-service/passkeys/${encodeURIComponent(id)}`).then(() => undefined),
  /** Signs in with a passkey the browser holds for this site: no e-mail is asked. */
  signIn: async () => {
    const { data: optionsJSON } = await http.post<PublicKeyCredentialRequestOptionsJSON>('/passkey-service/sign-in/options');
    const response = await startAuthentication({ optionsJSON });
    return (await http.post<LoginResponse>('/passkey-service/sign-in/verify', { response })).data;
  },
  /** The second step of a password sign-in, with one of the account's passkeys. */
  secondFactor: async (ticket: string) => {
    const { data: optionsJSON } = await http.post<PublicKeyCredentialRequestOptionsJSON>('/passkey-service/second-factor/options', {
      ticket,
    });
    const response = await startAuthentication({ optionsJSON });
    return (await http.post<LoginResponse>('/passkey-service/second-factor/verify', { ticket, response })).data;
  },
};

/** Whether this browser can make and use passkeys at all. */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

export function usePasskeysQuery() {
  return useQuery({ queryKey: passkeyKeys.all, queryFn: passkeysApi.list, retry: false });
}

function usePasskeyMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }) });
}

export const useAddPasskey = () => usePasskeyMutation(passkeysApi.add);
export const useRenamePasskey = () => usePasskeyMutation(passkeysApi.rename);
export const useRemovePasskey = () => usePasskeyMutation(passkeysApi.remove);
