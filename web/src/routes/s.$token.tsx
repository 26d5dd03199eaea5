import { useParams } from 'react-router';
import { SharedLinkPage } from '../features/shared-link/SharedLinkPage';

/** A shared link's page; it needs no session. */
export function Component() {
  const { token = '' } = useParams();
  return <SharedLinkPage token={token} />;
}
