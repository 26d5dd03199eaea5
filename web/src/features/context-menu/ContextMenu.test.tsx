import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { MenuIcon } from '../../components/icons';
import { ContextMenu } from './ContextMenu';

function WithMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <input aria-label="Search" />
      <button type="button" onClick={() => setOpen(true)}>
        Card
      </button>
      {open && (
        <ContextMenu
          label="Actions"
          at={{ x: 10, y: 10 }}
          entries={[{ label: 'Trash', icon: MenuIcon, onSelect: () => undefined }]}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

describe('the context menu', () => {
  it('takes focus on its first entry, and a click elsewhere keeps the focus it gave', async () => {
    const user = userEvent.setup();
    render(<WithMenu />);
    await user.click(screen.getByRole('button', { name: 'Card' }));
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Trash' }));
    const search = screen.getByRole('textbox', { name: 'Search' });
    await user.click(search);
    expect(screen.queryByRole('menu')).toBeNull();
    // The closed menu's trap would hand focus back a moment later; it must not take it from here.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await vi.waitFor(() => expect(document.activeElement).toBe(search));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.activeElement).toBe(search);
  });
});
