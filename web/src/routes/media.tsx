import { MediaPage } from '../features/media/MediaPage';

export function Component() {
  return <MediaPage />;
}
