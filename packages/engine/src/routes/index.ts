import { authRoutes } from './auth.ts';
import { initRoutes } from './init.ts';
import type { RouteModule } from './route-module.ts';
import { serdeRoutes } from './serde.ts';
import { userRoutes } from './users.ts';

/** Every route module of the API, in registration order. */
export const routeModules: readonly RouteModule[] = [initRoutes, authRoutes, userRoutes, serdeRoutes];
