import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetHttpMock } from './http-mock';

// Route modules load lazily; the first visit of a page in a run may take a few seconds on a busy machine.
configure({ asyncUtilTimeout: 6000 });

beforeEach(() => {
  localStorage.clear();
  resetHttpMock();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
