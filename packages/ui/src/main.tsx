import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './app/console.css';
import { createTheme, Drawer, MantineProvider, Modal, Notification } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { Router } from './lib/router.tsx';
import { SessionProvider } from './lib/session.tsx';

// Shade 8: white text on filled buttons meets WCAG AA contrast (4.5:1) in both schemes.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Every close button gets a name (screen readers, axe's button-name rule).
  components: {
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto">
      {/* Bottom right: a toast never covers a drawer's title and close button (drawers open on the right). */}
      <Notifications position="bottom-right" />
      <Router>
        <SessionProvider>
          <App />
        </SessionProvider>
      </Router>
    </MantineProvider>
  </StrictMode>,
);
