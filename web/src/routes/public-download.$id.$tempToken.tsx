import { useParams } from 'react-router';
import { PublicDownloadPage } from '../features/public-download/PublicDownloadPage';

/** The public download page; it needs no session. */
export function Component() {
  const { id = '', tempToken = '' } = useParams();
  return <PublicDownloadPage id={id} token={tempToken} />;
}
