import '@/lib/i18n';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes, preloadRoutesOf } from '@/app/router';
import { startSessionExchange } from '@/lib/session';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');

const app = createRoot(root);
// As a transition, React draws the first screen in slices that let the browser breathe between
// them, instead of one long task that holds a slow phone's main thread.
const draw = () =>
  startTransition(() =>
    app.render(
      <StrictMode>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </StrictMode>,
    ),
  );
startSessionExchange();
// The first page's code first, so that it draws whole; a failed load draws the error screen.
preloadRoutesOf(location.pathname).then(draw, (error: unknown) => {
  console.error(error);
  draw();
});

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.error(error));
  });
}
