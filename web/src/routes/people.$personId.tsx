import { useParams } from 'react-router';
import { PersonPage } from '../features/people/PersonPage';

export function Component() {
  const { personId = '' } = useParams();
  return <PersonPage key={personId} personId={personId} />;
}
