import { useParams } from 'react-router';
import { BrowserPage } from '../features/browser/BrowserPage';

export function Component() {
  const { query = '' } = useParams();
  return <BrowserPage key={query} section="home" search={query} />;
}
