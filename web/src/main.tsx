import 'bootstrap/dist/css/bootstrap.min.css';
import './app/styles.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';

import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { startSession } from './lib/session/start-session';
import { captureAttribution } from './lib/attribution';

captureAttribution(window.location.search);
startSession();
const router = createAppRouter();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
