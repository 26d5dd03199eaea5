import type { EmbeddingProvider } from './provider.js';

export interface RemoteEmbeddingsConfig {
  url: string;
  model: string;
  apiKey?: string;
}

const TIMEOUT_MS = 30_000;

/** Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, LM Studio, vLLM, LocalAI…). */
export class RemoteEmbeddingProvider implements EmbeddingProvider {
  readonly modelId: string;

  constructor(
    private readonly config: RemoteEmbeddingsConfig,
    private readonly fetchFn: typeof fetch = fetch,
  ) {
    this.modelId = `remote:${config.model}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const url = new URL(this.config.url);
    if (!url.pathname.endsWith('/embeddings')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/embeddings`;
    const response = await this.fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.config.model, input: texts }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      // The API key goes to the configured endpoint only, never to wherever it redirects.
      redirect: 'error',
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
    const body = (await response.json()) as { data?: { index?: number; embedding?: number[] }[] };
    const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (data.length !== texts.length || data.some((d) => !Array.isArray(d.embedding)))
      throw new Error('embeddings endpoint answered an unexpected shape');
    return data.map((d) => Float32Array.from(d.embedding as number[]));
  }
}
