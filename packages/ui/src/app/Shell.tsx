import {
  ActionIcon,
  AppShell,
  Burger,
  Group,
  Loader,
  NavLink,
  SegmentedControl,
  Text,
  Title,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { Suspense, useCallback, useRef, useState, type KeyboardEvent } from 'react';
import { pageFor, pages } from './pages.ts';
import { loadPaletteEntries, paletteActions, type PaletteEntry } from './palette.ts';
import { useRouter } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';

/** Loads the palette's resources each time it opens (so it never shows a stale list for long). */
function usePaletteEntries(isAdmin: boolean, me: string | undefined) {
  const [state, setState] = useState<{ entries: PaletteEntry[]; problems: string[]; loading: boolean }>({
    entries: [],
    problems: [],
    loading: false,
  });
  const seq = useRef(0);
  const load = useCallback(() => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    void loadPaletteEntries(isAdmin, me).then((r) => {
      if (n === seq.current) setState({ ...r, loading: false });
    });
  }, [isAdmin, me]);
  return { ...state, load };
}

/** The frame of every page: navigation, theme, user, Ctrl+K palette. */
export function Shell() {
  const { path, search, navigate } = useRouter();
  const session = useSession();
  const [opened, { toggle }] = useDisclosure();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const page = pageFor(path);
  const shown = pages.filter((p) => !p.adminOnly || session.isAdmin);
  const palette = usePaletteEntries(session.isAdmin, session.user?.username);
  const actions = paletteActions(shown, palette.entries, navigate);
  const Page = page?.component;
  return (
    <AppShell
      header={{ height: 52 }}
      navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={2} size="h4">
              Weir Console
            </Title>
          </Group>
          <Group>
            <ActionIcon
              variant="default"
              onClick={() => spotlight.open()}
              aria-label="Command palette (Ctrl+K)"
              w="auto"
              px="xs"
            >
              <Text size="xs">Ctrl+K</Text>
            </ActionIcon>
            <SegmentedControl
              size="xs"
              aria-label="Theme"
              value={colorScheme}
              onChange={(v) => setColorScheme(v as MantineColorScheme)}
              data={[
                { label: 'Light', value: 'light' },
                { label: 'Dark', value: 'dark' },
                { label: 'System', value: 'auto' },
              ]}
            />
            <Text size="sm" data-testid="whoami">
              {session.user?.username} ({session.isAdmin ? 'admin' : 'user'})
            </Text>
            <ActionIcon variant="default" w="auto" px="xs" onClick={() => void session.logout()} aria-label="Sign out">
              <Text size="xs">Sign out</Text>
            </ActionIcon>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Pages">
        {shown.map((p) => (
          <NavLink
            key={p.path}
            href={p.path}
            label={p.label}
            active={page?.path === p.path}
            onClick={(e) => {
              e.preventDefault();
              navigate(p.path);
            }}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loader aria-label="Loading page" />}>
          {Page ? (
            <Page key={page.followsUrl ? page.path : path + search} />
          ) : (
            <Text role="alert">No page at {path}.</Text>
          )}
        </Suspense>
      </AppShell.Main>
      <Spotlight
        actions={actions}
        shortcut={['mod + K']}
        limit={50}
        onSpotlightOpen={palette.load}
        scrollable
        maxHeight={480}
        nothingFound={
          palette.loading
            ? 'Loading…'
            : palette.problems.length
              ? `Nothing found (not searched: ${palette.problems.join('; ')})`
              : 'Nothing found'
        }
        searchProps={{
          placeholder: 'Go to a page, rule, topic, task, pipeline, topology, lookup or user…',
          'aria-label': 'Command palette search',
          onKeyDown: enterTakesFirstMatch,
        }}
      />
    </AppShell>
  );
}

/**
 * Enter jumps to the first match when none is selected. Mantine selects the first action only when
 * the query changes, so a query typed while the resources were still loading (they load each time
 * the palette opens) left nothing selected, and Enter did nothing.
 */
function enterTakesFirstMatch(event: KeyboardEvent<HTMLInputElement>) {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  const palette = event.currentTarget.closest('[role="dialog"]');
  if (!palette || palette.querySelector('[data-action][data-selected]')) return;
  palette.querySelector<HTMLElement>('[data-action]')?.click();
}
