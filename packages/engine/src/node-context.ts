import type { Settings } from './config/settings.ts';
import type { LoginLimiter } from './auth/login-limiter.ts';
import type { TokenService } from './auth/tokens.ts';
import type { User, UserDirectory } from './auth/user-directory.ts';
import type { RouteAccess } from './auth/roles.ts';
import type { ConfigStore } from './store/config-store.ts';
import type { NodeRegistry } from './nodes/node-registry.ts';
import type { TopicClients } from './kafka/topic-clients.ts';
import type { StreamEngine } from './stream/stream-engine.ts';

/** What the API routes of one node work with; built by the node and passed to every route module. */
export interface NodeContext {
  readonly settings: Settings;
  readonly uuid: string;
  readonly store: ConfigStore;
  readonly tokens: TokenService;
  readonly users: UserDirectory;
  readonly loginLimiter: LoginLimiter;
  /** This node's entry in the node registry, and everyone else's. */
  readonly nodes: NodeRegistry;
  /** Kafka admin, producer and consumer sessions of the topic endpoints. */
  readonly topics: TopicClients;
  /** The stream engine of this node (spec: Engine). */
  readonly engine: StreamEngine;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (architecture: Security model); every /api route must say. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every route that is not public. */
    principal: User;
  }
}
