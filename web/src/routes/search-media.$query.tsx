import { useParams } from 'react-router';
import { MediaPage } from '../features/media/MediaPage';

export function Component() {
  const { query = '' } = useParams();
  return <MediaPage search={query} />;
}
