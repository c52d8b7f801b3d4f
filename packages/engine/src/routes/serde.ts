import { access } from '../auth/roles.ts';
import { serdeConfiguration } from '../kafka/serdes.ts';
import type { RouteModule } from './route-module.ts';
import { serdeConfig } from '@weir/contract';

/** Spec: the service → GET /api/config/serde. */
export const serdeRoutes: RouteModule = (app) => {
  app.get(
    '/api/config/serde',
    { config: { access: access.member }, schema: { response: { 200: serdeConfig } } },
    async () => serdeConfiguration,
  );
};
