import type { VersionThinning } from '../../services/versions/version-thinning.service.js';
import type { JobHandler } from '../worker.js';

/** The periodic retention pass over file versions (see VersionThinning); safe to run again at any time. */
export function handleVersionsThin(thinning: VersionThinning): JobHandler<'versions.thin'> {
  return async () => {
    await thinning.run();
  };
}
