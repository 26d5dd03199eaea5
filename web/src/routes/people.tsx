import { PeoplePage } from '../features/people/PeoplePage';

export function Component() {
  return <PeoplePage />;
}
