import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/AppProviders';
import './index.css';
import { createAppRouter } from './router';

const router = createAppRouter();
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
