import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { resetHttpMock } from './http-mock';

// Route modules load lazily; the first visit of a page in a run may take more than a second.
configure({ asyncUtilTimeout: 3000 });

beforeEach(() => {
  localStorage.clear();
  resetHttpMock();
});

afterEach(() => {
  cleanup();
});
