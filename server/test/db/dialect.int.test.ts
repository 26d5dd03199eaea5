import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';

describe('the integration project', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs against the database it is named for', () => {
    expect(t.app.database.dialect).toBe(testDialect());
    expect(t.config.db.driver).toBe(testDialect());
  });
});
