import type { Logger } from '../../logger.js';

export interface CaptionsConfig {
  url: string;
  model: string;
  apiKey?: string;
}

const TIMEOUT_MS = 60_000;
/** A caption is a sentence or two; more is not worth indexing. */
const MAX_CAPTION_WORDS = 60;
const PROMPT =
  'Describe this photo for a search index in one or two plain sentences: the main objects, animals, people, ' +
  'activities, the kind of place or scene, and the weather or time of day if visible. No speculation.';

/**
 * Captions pictures with a vision model behind any OpenAI-compatible `/v1/chat/completions`
 * endpoint (Ollama with llava or qwen2-vl, vLLM, LocalAI, OpenAI). Optional: the bundled detector
 * always runs, and a caption that cannot be had is simply not added.
 */
export class RemoteCaptioner {
  constructor(
    private readonly config: CaptionsConfig,
    private readonly log: Logger,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  /** A short description of the JPEG, or null when the endpoint fails or says nothing usable. */
  async caption(jpeg: Buffer): Promise<string | null> {
    try {
      return await this.ask(jpeg);
    } catch (err) {
      this.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'captions endpoint failed; the photo is described without it',
      );
      return null;
    }
  }

  private async ask(jpeg: Buffer): Promise<string | null> {
    const url = new URL(this.config.url);
    if (!url.pathname.endsWith('/chat/completions')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
    const response = await this.fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: this.config.model,
        temperature: 0,
        max_tokens: 120,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: PROMPT },
              { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` } },
            ],
          },
        ],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      // The API key goes to the configured endpoint only, never to wherever it redirects.
      redirect: 'error',
    });
    if (!response.ok) throw new Error(`captions endpoint answered ${response.status}`);
    const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('captions endpoint answered an unexpected shape');
    // Only words and plain punctuation are kept: the text is indexed, never shown as markup.
    const words = content
      .replace(/[^\p{L}\p{N}\s.,'-]/gu, ' ')
      .split(/\s+/)
      .filter(Boolean);
    return words.length > 0 ? words.slice(0, MAX_CAPTION_WORDS).join(' ') : null;
  }
}
