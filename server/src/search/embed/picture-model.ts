import type { SmartModelConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { SmartModelSource } from '../../model-store/model-status.js';

/** The image–text model as indexing and queries use it: its verified folder and the id its vectors keep. */
export interface ReadyPictureModel {
  dir: string;
  /** `clip:<repo>@<revision>`: vectors of another id are never compared with this model's. */
  id: string;
}

/**
 * Whether the image–text model can be used right now. Not configured, still downloading or failed:
 * null, and search runs on the bundled pipeline alone. A model whose files are on disk but do not
 * load (corrupt, or of another architecture) is reported once and then left alone in this process.
 */
export class PictureModel {
  private broken: string | null = null;

  constructor(
    private readonly source: SmartModelSource | undefined,
    private readonly config: SmartModelConfig | null | undefined,
    private readonly log: Logger,
  ) {}

  /** The id vectors of the configured model keep, whether or not it is ready yet. */
  get id(): string | null {
    return this.config ? pictureModelId(this.config) : null;
  }

  ready(): ReadyPictureModel | null {
    const dir = this.config ? this.source?.readyDir() : null;
    if (!dir || dir === this.broken || !this.id) return null;
    return { dir, id: this.id };
  }

  /** Whether the model is being fetched (then the backfill looks again later to embed the pictures). */
  get pending(): boolean {
    return this.config ? this.source?.status().state === 'downloading' : false;
  }

  /** The model failed to run: logged once; until the process restarts, the bundled pipeline answers alone. */
  failed(dir: string, error: string): void {
    if (this.broken === dir) return;
    this.broken = dir;
    this.log.error({ model: this.config?.id, dir, error }, 'the image–text model does not load; search uses the bundled pipeline');
  }
}

export function pictureModelId(config: Pick<SmartModelConfig, 'id' | 'revision'>): string {
  return `clip:${config.id}@${config.revision}`;
}
