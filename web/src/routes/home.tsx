import { BrowserPage } from '../features/browser/BrowserPage';

export function Component() {
  return <BrowserPage section="home" />;
}
