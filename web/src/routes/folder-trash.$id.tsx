import { useParams } from 'react-router';
import { BrowserPlaceholder } from '../features/browser/BrowserPlaceholder';

export function Component() {
  const { id = '' } = useParams();
  return <BrowserPlaceholder key={id} title="Trash folder" />;
}
