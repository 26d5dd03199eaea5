import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { errorBody, onRequest } from '../test/http-mock';
import { renderApp, testUser } from '../test/render-app';
import { RouterError } from './RouterError';

describe('routing', () => {
  it('sends a signed-out visitor of a protected route to / remembering where from', async () => {
    onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
    onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
    const { router } = renderApp('/search-media/cats');
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.state).toEqual({ from: '/search-media/cats' });
  });

  it.each(['/media', '/search-media/cats'])('%s renders the media gallery in the main layout', async (path) => {
    onRequest('GET', '/file-service/list', { status: 200, data: [] });
    renderApp(path, { user: testUser });
    expect(await screen.findByRole('heading', { name: 'Photos and Videos' })).toBeTruthy();
    expect(await screen.findByTestId('media-page')).toBeTruthy();
    expect(screen.getByRole('search')).toBeTruthy();
  });

  it('shows "Unexpected Application Error!" when a route fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const Boom = () => {
      throw new Error('boom');
    };
    const router = createMemoryRouter([{ path: '/', Component: Boom, ErrorBoundary: RouterError }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
  });

  it('answers unknown pages with a not-found page', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});

describe('main layout', () => {
  it('has the side menu with ADD NEW, Home, Media, Shared, Settings and Trash', async () => {
    renderApp('/home', { user: testUser });
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    for (const name of ['Home', 'Media', 'Shared', 'Settings', 'Trash']) expect(within(menu).getByRole('link', { name })).toBeTruthy();
    expect(within(menu).getByRole('link', { name: 'Trash' }).className).toContain('text-red-600');
    expect(within(menu).getByRole('link', { name: 'Settings' }).className).toContain('md:hidden');
  });

  it('ADD NEW opens Upload Files, Create Folder and (with folder selection) Upload Folder', async () => {
    renderApp('/home', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'ADD NEW' }));
    const menu = screen.getByRole('menu', { name: 'Add new' });
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent?.trim());
    expect(items.slice(0, 2)).toEqual(['Upload Files', 'Create Folder']);
    expect(items.includes('Upload Folder')).toBe('webkitdirectory' in document.createElement('input'));
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Create Folder' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('the hamburger opens the drawer; navigating closes it', async () => {
    const { store } = renderApp('/home', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(store.getState().drawer.drawOpen).toBe(true);
    const drawer = screen.getAllByRole('complementary', { name: 'Side menu' }).at(-1)!;
    fireEvent.click(within(drawer).getByRole('link', { name: 'Media' }));
    await screen.findByRole('heading', { name: 'Photos and Videos' });
    await waitFor(() => expect(store.getState().drawer.drawOpen).toBe(false));
  });

  it('settings has no hamburger, a gear-less header and the HOME link', async () => {
    onRequest('GET', '/user-service/user-detailed', { status: 200, data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z' } });
    renderApp('/settings', { user: testUser });
    await screen.findByRole('link', { name: 'HOME' });
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'General' })).toBeTruthy();
  });

  it.each([
    ['/home', 'cats', '/search/cats'],
    ['/media', 'beach', '/search-media/beach'],
    ['/folder-trash/x', 'old', '/search-trash/old'],
    ['/search/cats', '  ', '/home'],
  ])('searching from %s for "%s" goes to %s', async (from, query, to) => {
    const { router } = renderApp(from, { user: testUser });
    const input = await screen.findByRole('searchbox', { name: 'Search files and folders' });
    fireEvent.change(input, { target: { value: query } });
    fireEvent.submit(screen.getByRole('search'));
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });
});
