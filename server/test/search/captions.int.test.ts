import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from './support.js';

const espresso = readFileSync(path.join(import.meta.dirname, '../fixtures/vision/espresso.jpg'));

interface Asked {
  authorization: string | undefined;
  model: string;
  image: string;
}

/** A stand-in for an OpenAI-compatible vision endpoint: answers `reply` (a caption, or a status). */
async function standIn(reply: { caption: string } | { status: number }) {
  const asked: Asked[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const json = JSON.parse(body) as { model: string; messages: { content: { type: string; image_url?: { url: string } }[] }[] };
      const image = json.messages[0]?.content.find((c) => c.type === 'image_url')?.image_url?.url ?? '';
      asked.push({ authorization: req.headers.authorization, model: json.model, image });
      if (req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      if ('status' in reply) return res.writeHead(reply.status).end('{"error":"down"}');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply.caption } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, asked, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('photo captions from an optional vision model', () => {
  describe('when the endpoint answers', () => {
    let h: SearchHarness;
    let alice: TestBrowser;
    let model: Awaited<ReturnType<typeof standIn>>;

    beforeAll(async () => {
      model = await standIn({ caption: 'A small espresso on a saucer beside <b>a silver spoon</b>, on a wooden café table.' });
      h = await createSearchApp({
        search: { enabled: true, embeddings: null, captions: { url: model.url, model: 'llava', apiKey: 'secret' } },
      });
      alice = new TestBrowser(h.app);
      await alice.signUp();
      await upload(alice, 'IMG_0001.jpg', espresso);
      await upload(alice, 'notes.txt', 'Nothing to caption here.');
      await h.index();
    }, 120_000);

    afterAll(async () => {
      await h.close();
      await model.close();
    });

    it('sends each photo once, scaled down, with the model and key configured', () => {
      expect(model.asked).toHaveLength(1);
      expect(model.asked[0]).toMatchObject({ authorization: 'Bearer secret', model: 'llava' });
      expect(model.asked[0]!.image).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    });

    it('finds the photo by the words of its caption, next to what the detector saw', async () => {
      expect((await semanticSearch(alice, 'silver spoon')).body.files.map((f) => f.filename)).toEqual(['IMG_0001.jpg']);
      expect((await semanticSearch(alice, 'cup')).body.files.map((f) => f.filename)).toContain('IMG_0001.jpg');
    });
  });

  describe('when the endpoint fails', () => {
    let h: SearchHarness;
    let alice: TestBrowser;
    let model: Awaited<ReturnType<typeof standIn>>;

    beforeAll(async () => {
      model = await standIn({ status: 503 });
      h = await createSearchApp({ search: { enabled: true, embeddings: null, captions: { url: model.url, model: 'llava' } } });
      alice = new TestBrowser(h.app);
      await alice.signUp();
      await upload(alice, 'IMG_0001.jpg', espresso);
      await h.index();
    }, 120_000);

    afterAll(async () => {
      await h.close();
      await model.close();
    });

    it('indexes the photo with the bundled analysis alone', async () => {
      expect(model.asked).toHaveLength(1);
      expect(model.asked[0]!.authorization).toBeUndefined();
      expect((await semanticSearch(alice, 'cup')).body.files.map((f) => f.filename)).toEqual(['IMG_0001.jpg']);
    });
  });
});
