import { SharedPage } from '../features/share-links/SharedPage';

export function Component() {
  return <SharedPage />;
}
