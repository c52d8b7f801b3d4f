import { authRoutes } from './auth.ts';
import { configResourceRoutes } from './config-resources.ts';
import { initRoutes } from './init.ts';
import { lookupRoutes } from './lookups.ts';
import { nodeRoutes } from './nodes.ts';
import type { RouteModule } from './route-module.ts';
import { serdeRoutes } from './serde.ts';
import { topicRoutes } from './topics.ts';
import { topicDetailRoutes } from './topic-details.ts';
import { consumerGroupRoutes } from './consumer-groups.ts';
import { userRoutes } from './users.ts';
import { engineRoutes } from './engine.ts';
import { testRoutes } from './tests.ts';
import { explainRoutes } from './explain.ts';
import { sigmaImportRoutes } from './sigma-import.ts';
import { liveRoutes } from './live.ts';
import { auditRoutes } from './audit.ts';
import { diagnosticsRoutes } from './diagnostics.ts';
import { silenceRoutes } from './silences.ts';
import { alertRoutes } from './alerts.ts';
import { notifierRoutes } from './notifiers.ts';
import { backtestRoutes } from './backtests.ts';
import { lintRoutes } from './lint.ts';

/** Every route module of the API, in registration order. */
export const routeModules: readonly RouteModule[] = [
  initRoutes,
  authRoutes,
  userRoutes,
  serdeRoutes,
  topicRoutes,
  topicDetailRoutes,
  consumerGroupRoutes,
  nodeRoutes,
  configResourceRoutes,
  lookupRoutes,
  engineRoutes,
  testRoutes,
  explainRoutes,
  sigmaImportRoutes,
  liveRoutes,
  alertRoutes,
  auditRoutes,
  diagnosticsRoutes,
  silenceRoutes,
  notifierRoutes,
  backtestRoutes,
  lintRoutes,
];
