import { SharedWithMePage } from '../features/shared-with-me/SharedWithMePage';

export function Component() {
  return <SharedWithMePage />;
}
