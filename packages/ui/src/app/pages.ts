import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface PageDef {
  readonly path: string;
  readonly label: string;
  readonly component: LazyExoticComponent<ComponentType>;
  /** Shown in the navigation to admins only (the page itself still says why a user sees nothing). */
  readonly adminOnly?: boolean;
  /**
   * The page follows changes of its URL itself (its filters, an open record), so it is not mounted
   * anew on each: the Alerts page keeps the pages it loaded and its selection when a filter or an
   * alert's drawer changes the URL. Other pages start afresh on every change of path or query.
   */
  readonly followsUrl?: boolean;
}

/** Every page of the console, each its own lazily loaded chunk (the first screen stays small). */
export const pages: readonly PageDef[] = [
  { path: '/', label: 'Overview', component: lazy(() => import('../pages/OverviewPage.tsx')) },
  { path: '/topics', label: 'Topics', component: lazy(() => import('../pages/TopicsPage.tsx')) },
  { path: '/groups', label: 'Consumer groups', component: lazy(() => import('../pages/ConsumerGroupsPage.tsx')) },
  { path: '/messages', label: 'Messages', component: lazy(() => import('../pages/MessagesPage.tsx')) },
  { path: '/rules', label: 'Rules', component: lazy(() => import('../pages/RulesPage.tsx')) },
  {
    path: '/sigma-import',
    label: 'Sigma import',
    component: lazy(() => import('../pages/SigmaImportPage.tsx')),
    adminOnly: true,
  },
  { path: '/alerts', label: 'Alerts', component: lazy(() => import('../pages/AlertsPage.tsx')), followsUrl: true },
  { path: '/silences', label: 'Silences', component: lazy(() => import('../pages/SilencesPage.tsx')) },
  {
    path: '/notifiers',
    label: 'Notifiers',
    component: lazy(() => import('../pages/NotifiersPage.tsx')),
    adminOnly: true,
  },
  { path: '/lookups', label: 'Lookups', component: lazy(() => import('../pages/LookupsPage.tsx')) },
  { path: '/tasks', label: 'Tasks', component: lazy(() => import('../pages/TasksPage.tsx')) },
  { path: '/pipelines', label: 'Pipelines', component: lazy(() => import('../pages/PipelinesPage.tsx')) },
  { path: '/topologies', label: 'Topologies', component: lazy(() => import('../pages/TopologiesPage.tsx')) },
  { path: '/configuration', label: 'Configuration', component: lazy(() => import('../pages/ConfigurationPage.tsx')) },
  { path: '/coverage', label: 'ATT&CK coverage', component: lazy(() => import('../pages/CoveragePage.tsx')) },
  { path: '/users', label: 'Users', component: lazy(() => import('../pages/UsersPage.tsx')), adminOnly: true },
  { path: '/profile', label: 'Profile', component: lazy(() => import('../pages/ProfilePage.tsx')) },
];

/** The page for a path: exact, else the longest prefix (`/rules/r1` → Rules). */
export function pageFor(path: string): PageDef | undefined {
  return (
    pages.find((p) => p.path === path) ??
    [...pages]
      .filter((p) => p.path !== '/' && path.startsWith(`${p.path}/`))
      .sort((a, b) => b.path.length - a.path.length)[0]
  );
}
