import { BrowserPlaceholder } from '../features/browser/BrowserPlaceholder';

export function Component() {
  return <BrowserPlaceholder title="Photos and Videos" />;
}
