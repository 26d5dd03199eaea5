import { describe, expect, it } from 'vitest';
import { FallbackEmbeddingProvider } from '../../src/search/embed/fallback.js';
import type { EmbeddingProvider } from '../../src/search/embed/provider.js';
import { asInt8, normalize, quantize } from '../../src/search/embed/quantize.js';
import { RemoteEmbeddingProvider } from '../../src/search/embed/remote.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function fixed(modelId: string, value: number): EmbeddingProvider {
  return { modelId, embed: async (texts) => texts.map(() => Float32Array.from([value, 0])) };
}

describe('OpenAI-compatible embeddings', () => {
  it('posts the model and inputs and returns vectors in input order', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), init });
      return new Response(
        JSON.stringify({
          data: [
            { index: 1, embedding: [0, 1] },
            { index: 0, embedding: [1, 0] },
          ],
        }),
      );
    }) as unknown as typeof fetch;
    const sut = new RemoteEmbeddingProvider({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', apiKey: 'k' }, fakeFetch);
    const vectors = await sut.embed(['a', 'b']);
    expect(vectors.map((v) => [...v])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(calls[0]?.url).toBe('http://127.0.0.1:11434/v1/embeddings');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ model: 'nomic-embed-text', input: ['a', 'b'] });
    expect((calls[0]?.init.headers as Record<string, string>).authorization).toBe('Bearer k');
    expect(sut.modelId).toBe('remote:nomic-embed-text');
  });

  it('fails on an error status or a malformed answer', async () => {
    const status = (async () => new Response('no', { status: 503 })) as unknown as typeof fetch;
    await expect(new RemoteEmbeddingProvider({ url: 'http://x/v1', model: 'm' }, status).embed(['a'])).rejects.toThrow(/503/);
    const shape = (async () => new Response(JSON.stringify({ data: [] }))) as unknown as typeof fetch;
    await expect(new RemoteEmbeddingProvider({ url: 'http://x/v1', model: 'm' }, shape).embed(['a'])).rejects.toThrow(/shape/);
  });
});

describe('falling back to the local model', () => {
  it('uses the remote model when it answers, the local one when it fails', async () => {
    const local = fixed('local', 1);
    const working = new FallbackEmbeddingProvider(fixed('remote:m', 2), local, silent);
    expect((await working.embed(['x'], 'query')).modelId).toBe('remote:m');
    const failing: EmbeddingProvider = { modelId: 'remote:m', embed: () => Promise.reject(new Error('down')) };
    const sut = new FallbackEmbeddingProvider(failing, local, silent);
    const result = await sut.embed(['x'], 'document');
    expect(result.modelId).toBe('local');
    // The backfill keeps aiming for the configured model.
    expect(sut.preferredModelId).toBe('remote:m');
  });
});

describe('int8 vectors', () => {
  it('keep the direction of the vector', () => {
    const v = normalize(Float32Array.from([0.3, -0.6, 0.1, 0]));
    const q = asInt8(quantize(v));
    expect([...q]).toEqual([63, -127, 21, 0]);
    const norm = Math.hypot(...q);
    const cosine = [...q].reduce((sum, x, i) => sum + x * (v[i] as number), 0) / norm;
    expect(cosine).toBeGreaterThan(0.999);
  });
});
