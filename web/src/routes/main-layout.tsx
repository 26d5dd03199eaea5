import { MainLayout } from '../features/layout/MainLayout';

export function Component() {
  return <MainLayout />;
}
