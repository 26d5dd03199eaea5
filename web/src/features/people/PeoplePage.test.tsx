import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { elapse, useFakeClock } from '../../test/clock';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { answerSettings, person } from './people-fixtures';

const anna = person('p1', { name: 'Anna', photoCount: 7 });
const stranger = person('p2', { photoCount: 1, coverFaceId: null });
const hiddenOne = person('p3', { name: 'Bob', hidden: true });

describe('people page', () => {
  it('is reached from the media gallery and shows each person with a face, a name or "Add a name", and a photo count', async () => {
    onRequest('GET', '/file-service/list', { status: 200, data: [] });
    answerSettings();
    onRequest('GET', '/people-service/people', { status: 200, data: { people: [anna, stranger] } });
    const { router } = renderApp('/media', { user: testUser });
    fireEvent.click(await screen.findByRole('link', { name: 'People' }));
    await screen.findByRole('heading', { name: 'People' });
    expect(router.state.location.pathname).toBe('/people');

    const list = await screen.findByRole('list', { name: 'People' });
    const cards = within(list).getAllByRole('link');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Anna', 'Add a name']);
    expect(within(cards[0]!).getByText('7 photos')).toBeTruthy();
    expect(within(cards[1]!).getByText('1 photo')).toBeTruthy();
    expect(within(cards[0]!).getByTestId('face-crop').getAttribute('src')).toBe('/people-service/faces/face-p1/crop');
    // A person without a cover face shows a silhouette rather than a broken image.
    expect(within(cards[1]!).queryByTestId('face-crop')).toBeNull();
    expect(requestsTo('GET', '/people-service/people')[0]!.params).toEqual({});

    fireEvent.click(cards[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/people/p1'));
  });

  it('shows hidden people only behind "Show hidden people"', async () => {
    answerSettings();
    onRequest('GET', '/people-service/people', (request) => ({
      status: 200,
      data: { people: request.params.hidden ? [hiddenOne] : [anna] },
    }));
    renderApp('/people', { user: testUser });
    const list = await screen.findByRole('list', { name: 'People' });
    expect(within(list).getAllByRole('link')).toHaveLength(1);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show hidden people' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'People' })).getAllByRole('link')).toHaveLength(2));
    expect(requestsTo('GET', '/people-service/people').at(-1)!.params).toEqual({ hidden: true });
    expect(within(screen.getByRole('link', { name: 'Bob' })).getByText(/Hidden from People/)).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show hidden people' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Bob' })).toBeNull());
  });

  it('says when nobody has been found yet, and how many photos wait', async () => {
    answerSettings({ scannedPhotos: 1, pendingPhotos: 4 });
    onRequest('GET', '/people-service/people', { status: 200, data: { people: [] } });
    renderApp('/people', { user: testUser });
    expect(await screen.findByText('No people yet. Faces in your photos appear here after they are processed.')).toBeTruthy();
    expect(screen.getByText('1 photo processed, 4 waiting')).toBeTruthy();
  });

  it('looks again every 5 s while photos wait, and stops when none wait', async () => {
    useFakeClock();
    onRequest(
      'GET',
      '/people-service/settings',
      { status: 200, data: { enabled: true, scannedPhotos: 0, pendingPhotos: 2 } },
      { status: 200, data: { enabled: true, scannedPhotos: 2, pendingPhotos: 0 } },
    );
    onRequest('GET', '/people-service/people', { status: 200, data: { people: [] } }, { status: 200, data: { people: [anna] } });
    renderApp('/people', { user: testUser });
    await screen.findByText('0 photos processed, 2 waiting');
    await screen.findByText(/No people yet/);
    await elapse(5000);
    await screen.findByRole('link', { name: 'Anna' });
    expect(screen.queryByText(/waiting/)).toBeNull();
    const reads = requestsTo('GET', '/people-service/people').length;
    await elapse(15_000);
    expect(requestsTo('GET', '/people-service/people')).toHaveLength(reads);
    expect(requestsTo('GET', '/people-service/settings')).toHaveLength(2);
  });

  it('says when people are off, without asking for them, and links to the setting', async () => {
    answerSettings({ enabled: false });
    onRequest('GET', '/user-service/user-detailed', { status: 200, data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z' } });
    const { router } = renderApp('/people', { user: testUser });
    expect(await screen.findByText('People in photos is off')).toBeTruthy();
    expect(requestsTo('GET', '/people-service/people')).toHaveLength(0);

    fireEvent.click(screen.getByRole('link', { name: 'Open Settings' }));
    await screen.findByRole('heading', { name: 'People in photos' });
    expect(router.state.location.pathname).toBe('/settings');
    expect(screen.getByRole('switch', { name: 'People in photos' }).getAttribute('aria-checked')).toBe('false');
  });

  it('says when the people cannot be loaded', async () => {
    answerSettings();
    onRequest('GET', '/people-service/people', { status: 500, data: errorBody('INTERNAL') });
    renderApp('/people', { user: testUser });
    expect((await screen.findByRole('alert')).textContent).toBe('People could not be loaded');
  });
});
