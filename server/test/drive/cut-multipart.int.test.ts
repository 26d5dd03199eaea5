import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Found by the route fuzzer (test/fuzz): a body that ends inside a file part, after an earlier file
// was stored, made the upload's sniffing stream emit 'error' before the store listened to it: an
// uncaught exception, which ends a real server process.
describe('a multipart body that ends inside its second file', () => {
  let t: TestApp;
  let alice: TestBrowser;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await t.close();
  });

  it.each(['/folder-service/upload', '/file-service/upload'])('fails %s with a 400, keeps nothing and crashes nothing', async (url) => {
    const b = 'x'.repeat(70);
    const part = (headers: string, content: string) => `--${b}\r\n${headers}\r\n\r\n${content}\r\n`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const body =
        part('Content-Disposition: form-data; name="parent"', '/') +
        part('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain', 'first file') +
        part('Content-Disposition: form-data; name="file"; filename="b.txt"\r\nContent-Type: text/plain', 'z'.repeat(100 * 1024)).slice(
          0,
          50 * 1024,
        );
      const response = await alice.request('POST', url, body, { 'content-type': `multipart/form-data; boundary=${b}` });
      expect(response.statusCode).toBe(400);
      // The store's failure reaches the request after the stream's; give a stray error its tick.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(uncaught).toEqual([]);
    if (url === '/folder-service/upload') expect(await listFiles(alice)).toEqual([]);
  });
});
