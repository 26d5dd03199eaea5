import type { FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ACTIVE = [
  { name: 'lib.js', body: 'alert(document.domain)' },
  { name: 'page.html', body: '<script>alert(1)</script>' },
  { name: 'drawing.svg', body: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' },
  { name: 'page.xhtml', body: '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>' },
  { name: 'style.css', body: 'body{}' },
];

describe('content types of user bytes', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let anonymous: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    anonymous = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  it.each(ACTIVE)('serves $name as opaque bytes in a sandbox, signed in and by public link', async ({ name, body }) => {
    const file = await upload(alice, name, body);
    const shared = (await alice.patch(`/file-service/make-public/${file._id}`)).json() as FileDto;
    for (const response of [
      await alice.get(`/file-service/download/${file._id}`),
      await anonymous.get(`/file-service/public/download/${file._id}/${shared.metadata.link}`),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-disposition']).toMatch(/^attachment/);
      expect(response.body).toBe(body);
    }
  });

  it('keeps the type of media and plain text, which previews show', async () => {
    const text = await upload(alice, 'notes.txt', 'hello');
    expect((await alice.get(`/file-service/download/${text._id}`)).headers['content-type']).toMatch(/^text\/plain/);
  });
});
