import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { InitPage } from './InitPage.tsx';
import { LoginPage } from './LoginPage.tsx';
import { Shell } from './Shell.tsx';
import { useSession } from '../lib/session.tsx';

export function App() {
  const session = useSession();
  switch (session.phase) {
    case 'loading':
      return (
        <Center h="100vh">
          <Loader aria-label="Loading" />
        </Center>
      );
    case 'unreachable':
      return (
        <Center h="100vh">
          <Stack align="center">
            <Title order={1}>Weir Console</Title>
            <Text role="alert">The engine cannot be reached: {session.error}</Text>
          </Stack>
        </Center>
      );
    case 'init':
      return <InitPage />;
    case 'login':
      return <LoginPage />;
    case 'ready':
      return <Shell />;
  }
}
