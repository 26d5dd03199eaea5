import type { UserDto } from '@nimbus/common';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from '../app/AppProviders';
import { loadDeferredModules } from '../components/lazy-module';
import '../features/layout/MainLayout';
// The item menus' ContextMenu is a deferred module of the lists, which load with their route chunk, after the
// call below; a test that right-clicks before that chunk's own loadDeferredModules settles found no menu yet.
import '../features/context-menu/useItemMenu';
import { routes } from '../router';
import { createAppStore } from '../state/store';
import { setUser } from '../state/user.slice';

// The main layout fetches its deferred parts (menus, bars, dropdowns) once it is on screen; tests
// start with them at hand, as a user who has looked at the page for a moment would.
await loadDeferredModules();

export const testUser: UserDto = { _id: 'user-1', email: 'ada@example.com', emailVerified: true };

interface RenderOptions {
  /** Start signed in as this user. */
  user?: UserDto;
}

/** Renders the real route table at `path` in memory, with a fresh store and query cache. */
export function renderApp(path: string, options: RenderOptions = {}) {
  const store = createAppStore();
  if (options.user) store.dispatch(setUser(options.user));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders store={store} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, store, router };
}
