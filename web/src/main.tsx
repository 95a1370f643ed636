import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppRouter } from './app/router';
import { createAppTheme } from './app/theme';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

/**
 * Lets the browser run whatever waits (input, network callbacks) before going on. A message, not a
 * timeout: a tab opened in the background gets timeouts at most once a second.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

// Start-up in several short tasks rather than one long one (on a slow phone the code's evaluation,
// the theme and the router each take tens of milliseconds): the theme, then the router (which
// starts loading the first page's code), then the first render in a transition, which React draws
// in slices between which the browser stays free.
await nextTask();
const theme = createAppTheme();
await nextTask();
const router = createAppRouter();
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <App theme={theme} router={router} />
    </StrictMode>,
  );
});
