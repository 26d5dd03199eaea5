import { useParams } from 'react-router';
import { BrowserPlaceholder } from '../features/browser/BrowserPlaceholder';

export function Component() {
  const { query = '' } = useParams();
  return <BrowserPlaceholder title={`Search: ${query}`} />;
}
