import { useParams } from 'react-router';
import { BrowserPage } from '../features/browser/BrowserPage';

export function Component() {
  const { id = '' } = useParams();
  return <BrowserPage key={id} section="trash" folderId={id} />;
}
