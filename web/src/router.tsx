import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootLayout } from './app/RootLayout';
import { RouterError } from './app/RouterError';
import { FullPageSpinner } from './components/Spinner';
import { RequireAuth } from './features/session/RequireAuth';

/** Every page of the web app; each is its own lazily loaded chunk. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouterError,
    HydrateFallback: FullPageSpinner,
    children: [
      { index: true, lazy: () => import('./routes/index') },
      { path: 'verify-email/:token', lazy: () => import('./routes/verify-email.$token') },
      { path: 'reset-password/:token', lazy: () => import('./routes/reset-password.$token') },
      { path: 'public-download/:id/:tempToken', lazy: () => import('./routes/public-download.$id.$tempToken') },
      { path: 's/:token', lazy: () => import('./routes/s.$token') },
      { path: 'invite/:token', lazy: () => import('./routes/invite.$token') },
      {
        Component: RequireAuth,
        children: [
          {
            lazy: () => import('./routes/main-layout'),
            children: [
              { path: 'home', lazy: () => import('./routes/home') },
              { path: 'folder/:id', lazy: () => import('./routes/folder.$id') },
              { path: 'search/:query', lazy: () => import('./routes/search.$query') },
              { path: 'trash', lazy: () => import('./routes/trash') },
              { path: 'folder-trash/:id', lazy: () => import('./routes/folder-trash.$id') },
              { path: 'search-trash/:query', lazy: () => import('./routes/search-trash.$query') },
              { path: 'media', lazy: () => import('./routes/media') },
              { path: 'search-media/:query', lazy: () => import('./routes/search-media.$query') },
              { path: 'people', lazy: () => import('./routes/people') },
              { path: 'people/:personId', lazy: () => import('./routes/people.$personId') },
              { path: 'shared', lazy: () => import('./routes/shared') },
              { path: 'shared-with-me', lazy: () => import('./routes/shared-with-me') },
            ],
          },
          { path: 'settings', lazy: () => import('./routes/settings') },
          { path: 'admin', lazy: () => import('./routes/admin') },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
