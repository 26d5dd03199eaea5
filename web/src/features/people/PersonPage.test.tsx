import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import type { Person } from './people.api';
import { answerSettings, face, person, photo } from './people-fixtures';

const PATH = '/people-service/people/p1';

let observed: (() => void)[] = [];
beforeEach(() => {
  observed = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        observed.push(() =>
          this.callback(
            [{ isIntersecting: true, intersectionRatio: 1 } as IntersectionObserverEntry],
            this as unknown as IntersectionObserver,
          ),
        );
      }
      unobserve() {}
      disconnect() {}
    },
  );
  answerSettings();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Person p1 with two photos, a face of theirs in each, answering PATCH with the changes applied. */
function answerPerson(initial: Partial<Person> = {}) {
  let current = person('p1', initial);
  onRequest('GET', PATH, () => ({ status: 200, data: current }));
  onRequest('PATCH', PATH, (request) => {
    current = { ...current, ...(request.body as Partial<Person>) };
    return { status: 200, data: current };
  });
  onRequest('GET', `${PATH}/files`, { status: 200, data: { files: [photo('a'), photo('b')], nextCursor: null } });
  onRequest('GET', `${PATH}/faces`, { status: 200, data: { faces: [face('fa', 'a', 'p1'), face('fb', 'b', 'p1')] } });
}

async function openPerson(initial: Partial<Person> = {}) {
  answerPerson(initial);
  const view = renderApp('/people/p1', { user: testUser });
  await screen.findByRole('button', { name: 'a.jpg' });
  return view;
}

describe('person page: name', () => {
  it('renames inline: a click gives a field, Enter saves it (trimmed) and says so', async () => {
    await openPerson();
    fireEvent.click(screen.getByRole('button', { name: 'Add a name' }));
    const field = screen.getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: '  Anna ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText('Name saved')).toBeTruthy();
    expect(requestsTo('PATCH', PATH).map((r) => r.body)).toEqual([{ name: 'Anna' }]);
    expect(await screen.findByRole('heading', { name: 'Anna' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });

  it('Escape leaves the name as it was, without a request', async () => {
    await openPerson({ name: 'Anna' });
    fireEvent.click(screen.getByRole('button', { name: 'Anna' }));
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' });
    expect(field.value).toBe('Anna');
    fireEvent.change(field, { target: { value: 'Someone else' } });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.getByRole('heading', { name: 'Anna' })).toBeTruthy();
    expect(requestsTo('PATCH', PATH)).toHaveLength(0);
  });

  it('an empty name clears it, and an unchanged one sends nothing', async () => {
    await openPerson({ name: 'Anna' });
    fireEvent.click(screen.getByRole('button', { name: 'Anna' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Name' }), { key: 'Enter' });
    await screen.findByRole('heading', { name: 'Anna' });
    expect(requestsTo('PATCH', PATH)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Anna' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: '   ' } });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Name' }), { key: 'Enter' });
    expect(await screen.findByRole('heading', { name: 'Add a name' })).toBeTruthy();
    expect(requestsTo('PATCH', PATH).map((r) => r.body)).toEqual([{ name: null }]);
  });

  it('keeps the field open and says so when the name is refused', async () => {
    await openPerson();
    onRequest('PATCH', PATH, { status: 400, data: errorBody('VALIDATION_ERROR', 'At most 100 characters') });
    fireEvent.click(screen.getByRole('button', { name: 'Add a name' }));
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' });
    expect(field.maxLength).toBe(100);
    fireEvent.change(field, { target: { value: 'Anna' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText('The name could not be saved')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' }).value).toBe('Anna');
  });
});

describe('person page: merge and hide', () => {
  it('merges another person into this one after picking them and confirming', async () => {
    onRequest('GET', '/people-service/people', (request) => ({
      status: 200,
      data: {
        people: request.params.hidden
          ? [person('p3', { name: 'Carl', hidden: true })]
          : [person('p1', { name: 'Anna' }), person('p2', { name: 'Bob', photoCount: 3 })],
      },
    }));
    const merged = person('p1', { name: 'Anna', photoCount: 5 });
    onRequest('POST', `${PATH}/merge`, () => {
      onRequest('GET', PATH, { status: 200, data: merged });
      return { status: 200, data: merged };
    });
    await openPerson({ name: 'Anna' });
    fireEvent.click(screen.getByRole('button', { name: 'Merge with…' }));
    const picker = await screen.findByRole('dialog', { name: 'Merge Anna with…' });
    const choices = await within(picker).findByRole('list', { name: 'People to merge with' });
    await waitFor(() => expect(within(choices).getAllByRole('button')).toHaveLength(2));
    expect(within(choices).queryByText('Anna')).toBeNull();
    expect(within(choices).getByText('3 photos')).toBeTruthy();
    expect(
      within(choices)
        .getAllByTestId('face-crop')
        .map((img) => img.getAttribute('src')),
    ).toEqual(['/people-service/faces/face-p2/crop', '/people-service/faces/face-p3/crop']);

    fireEvent.click(within(choices).getByText('Bob'));
    const confirm = await screen.findByRole('dialog', { name: 'Merge these people?' });
    expect(within(confirm).getByText('Bob and Anna will be one person, with the photos of both.')).toBeTruthy();
    expect(requestsTo('POST', `${PATH}/merge`)).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Merge' }));
    expect(await screen.findByText('People merged')).toBeTruthy();
    expect(requestsTo('POST', `${PATH}/merge`).map((r) => r.body)).toEqual([{ personId: 'p2' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('5 photos')).toBeTruthy();
  });

  it('goes back to the picker, or closes without merging', async () => {
    onRequest('GET', '/people-service/people', (request) => ({
      status: 200,
      data: { people: request.params.hidden ? [] : [person('p1'), person('p2', { name: 'Bob' })] },
    }));
    await openPerson();
    fireEvent.click(screen.getByRole('button', { name: 'Merge with…' }));
    fireEvent.click(await screen.findByText('Bob'));
    expect(await screen.findByText('The two will be one person, with the photos of both.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('dialog', { name: 'Merge Add a name with…' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('POST', `${PATH}/merge`)).toHaveLength(0);
  });

  it('hides the person and shows them again', async () => {
    await openPerson({ name: 'Anna' });
    fireEvent.click(screen.getByRole('button', { name: 'Hide person' }));
    await screen.findByRole('button', { name: 'Show person' });
    expect(screen.getByText(/Hidden from People/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show person' }));
    await screen.findByRole('button', { name: 'Hide person' });
    expect(requestsTo('PATCH', PATH).map((r) => r.body)).toEqual([{ hidden: true }, { hidden: false }]);
  });
});

describe('person page: photos', () => {
  it('removes a wrong face: the tile goes and the toast says so', async () => {
    onRequest('DELETE', `${PATH}/faces/fa`, { status: 200, data: { message: 'Face removed' } });
    await openPerson({ name: 'Anna' });
    const tiles = screen.getAllByTestId('person-photo');
    expect(tiles.map((tile) => tile.dataset.fileId)).toEqual(['a', 'b']);
    fireEvent.click(within(tiles[0]!).getByRole('button', { name: 'Not Anna: a.jpg' }));
    expect(await screen.findByText('Face removed')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'a.jpg' })).toBeNull());
    expect(screen.getByRole('button', { name: 'b.jpg' })).toBeTruthy();
    expect(requestsTo('DELETE', `${PATH}/faces/fa`)).toHaveLength(1);
  });

  it('offers "Remove from this person" when the person has no name, also in the tile menu', async () => {
    onRequest('DELETE', `${PATH}/faces/fb`, { status: 200, data: { message: 'Face removed' } });
    await openPerson();
    fireEvent.contextMenu(screen.getByRole('button', { name: 'b.jpg' }), { clientX: 10, clientY: 10 });
    const menu = await screen.findByRole('menu');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Remove from this person' }));
    expect(await screen.findByText('Face removed')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'b.jpg' })).toBeNull());
  });

  it('keeps the tile when the face could not be removed', async () => {
    onRequest('DELETE', `${PATH}/faces/fa`, { status: 404, data: errorBody('FACE_NOT_FOUND') });
    await openPerson({ name: 'Anna' });
    fireEvent.click(screen.getByRole('button', { name: 'Not Anna: a.jpg' }));
    expect(await screen.findByText('The face could not be removed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'a.jpg' })).toBeTruthy();
  });

  it("pages by nextCursor and opens a photo in the usual preview, moving among the person's photos", async () => {
    answerPerson();
    onRequest(
      'GET',
      `${PATH}/files`,
      { status: 200, data: { files: [photo('a'), photo('b')], nextCursor: 'next-1' } },
      { status: 200, data: { files: [photo('c')], nextCursor: null } },
    );
    renderApp('/people/p1', { user: testUser });
    await screen.findByRole('button', { name: 'b.jpg' });
    observed.at(-1)!();
    await screen.findByRole('button', { name: 'c.jpg' });
    expect(requestsTo('GET', `${PATH}/files`).map((r) => r.params)).toEqual([{ limit: 100 }, { limit: 100, cursor: 'next-1' }]);

    const tile = screen.getByRole('button', { name: 'b.jpg' });
    fireEvent.click(tile);
    fireEvent.click(tile);
    const preview = await screen.findByTestId('file-preview');
    expect(within(preview).getByRole('heading', { name: 'b.jpg' })).toBeTruthy();
    fireEvent.click(within(preview).getByRole('button', { name: 'Next file' }));
    await within(preview).findByRole('heading', { name: 'c.jpg' });
  });

  it('says when the person is gone', async () => {
    onRequest('GET', PATH, { status: 404, data: errorBody('PERSON_NOT_FOUND') });
    renderApp('/people/p1', { user: testUser });
    expect((await screen.findByRole('alert')).textContent).toBe('This person is not here any more');
  });
});
