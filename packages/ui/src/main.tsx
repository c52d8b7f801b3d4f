import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { Router } from './router.tsx';
import { SessionProvider } from './session.tsx';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'sm', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <Notifications position="top-right" />
      <Router>
        <SessionProvider>
          <App />
        </SessionProvider>
      </Router>
    </MantineProvider>
  </StrictMode>,
);
