import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from './Dialog';
import { PopupCard } from '../features/popups/PopupCard';

function Opener({ modal }: { modal: 'dialog' | 'popup' }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Behind</button>
      {open &&
        (modal === 'dialog' ? (
          <Dialog title="Rename" onClose={close} actions={<button type="button">OK</button>}>
            <input aria-label="Name" />
          </Dialog>
        ) : (
          <PopupCard title="Details" closing={false} onClose={close}>
            <button type="button">Copy link</button>
          </PopupCard>
        ))}
    </>
  );
}

describe.each(['dialog', 'popup'] as const)('the modal shell (%s)', (modal) => {
  it('takes focus, keeps Tab inside, closes on Escape and gives focus back to its opener', async () => {
    const user = userEvent.setup();
    render(<Opener modal={modal} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog');
    expect(dialog.contains(document.activeElement)).toBe(true);

    for (let i = 0; i < 5; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement), `after ${i + 1} tabs`).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement), `after ${i + 1} shift-tabs`).toBe(true);
    }

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(opener));
  });
});

describe('stacked modals', () => {
  it('Escape closes only the topmost one', async () => {
    const user = userEvent.setup();
    const closeOuter = vi.fn();
    const closeInner = vi.fn();
    render(
      <>
        <PopupCard title="Outer" closing={false} onClose={closeOuter}>
          <button type="button">Inside outer</button>
        </PopupCard>
        <Dialog title="Inner" onClose={closeInner} actions={<button type="button">OK</button>} />
      </>,
    );
    await user.keyboard('{Escape}');
    expect(closeInner).toHaveBeenCalledTimes(1);
    expect(closeOuter).not.toHaveBeenCalled();
  });
});
