/**
 * Opens the browser's file picker for one file, from code rather than a rendered input (a menu entry
 * that closes as it runs). Settles with null when the picker is dismissed.
 */
export function pickFile(label: string): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.hidden = true;
    input.setAttribute('aria-label', label);
    input.dataset.testid = 'file-picker';
    const settle = (file: File | null) => {
      input.remove();
      resolve(file);
    };
    input.addEventListener('change', () => settle(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => settle(null), { once: true });
    // In the document, so that the picker (and anything driving the page) finds a real input.
    document.body.append(input);
    input.click();
  });
}
