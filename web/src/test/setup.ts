import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { resetHttpMock } from './http-mock';

beforeEach(() => {
  localStorage.clear();
  resetHttpMock();
});

afterEach(() => {
  cleanup();
});
