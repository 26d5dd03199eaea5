import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastHost } from '../features/notifications/ToastHost';
import { createAppStore, type AppStore } from '../state/store';

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 30_000, refetchOnWindowFocus: false } } });
}

interface AppProvidersProps {
  children: ReactNode;
  store?: AppStore;
  queryClient?: QueryClient;
}

/** Redux for UI state, TanStack Query for server data, and the toasts at the bottom left. */
export function AppProviders({ children, store, queryClient }: AppProvidersProps) {
  const [appStore] = useState(() => store ?? createAppStore());
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <Provider store={appStore}>
      <QueryClientProvider client={client}>
        {children}
        <ToastHost />
      </QueryClientProvider>
    </Provider>
  );
}
