import type { Settings } from '../config/settings.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { User, UserDirectory } from '../auth/user-directory.ts';
import type { RouteAccess } from '../auth/roles.ts';
import type { AuditingStore } from '../audit/auditing-store.ts';
import type { AlertStore } from '../alerts/alert-store.ts';
import type { NodeRegistry } from '../nodes/node-registry.ts';
import type { TopicPorts } from '../kafka/topic-clients.ts';
import type { LagSampler } from '../kafka/lag-sampler.ts';
import type { StreamEngine } from '../stream/stream-engine.ts';
import type { EngineMetrics } from '../stream/engine-metrics.ts';
import type { ApiError } from '../core/errors.ts';
import type { ErrorObject } from 'ajv';

/** The node's lifecycle as the health routes see it (http/health.ts). */
export interface HealthState {
  /** Set when the node begins to stop: readiness answers 503 from then on. */
  stopping: boolean;
}

/** What the API routes of one node work with; built by the node and passed to every route module. */
export interface NodeContext {
  readonly settings: Settings;
  readonly uuid: string;
  /** The config store; writes made while handling a request are audited (audit/auditing-store.ts). */
  readonly store: AuditingStore;
  readonly tokens: TokenService;
  readonly users: UserDirectory;
  readonly loginLimiter: LoginLimiter;
  /** This node's entry in the node registry, and everyone else's. */
  readonly nodes: NodeRegistry;
  /** Kafka admin, producer and consumer sessions of the topic endpoints (kafka/topic-clients.ts). */
  readonly topics: TopicPorts;
  /** The lag of every consumer group over time, sampled by this node (kafka/lag-sampler.ts). */
  readonly lagHistory: LagSampler;
  /** The stream engine of this node (spec: Engine). */
  readonly engine: StreamEngine;
  /** This node's metrics (`/metrics`, and its JSON summary on the API). */
  readonly metrics: EngineMetrics;
  /** This node's alert index and triage (docs/alerts.md, "The alert store and triage"). */
  readonly alerts: AlertStore;
  /** Whether the node is stopping (readiness answers 503 from then on). */
  readonly lifecycle: HealthState;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (architecture: Security model); every /api route must say. */
    access?: RouteAccess;
    /** A health probe: no token, no rate limit (http/health.ts). */
    health?: boolean;
    /**
     * How the route answers a request that fails its schemas, when the spec words it differently
     * (the topic bodies: TOPIC_INVALID); default VALIDATION with the request rendering (api.ts).
     */
    invalid?: (errors: readonly ErrorObject[], part: string) => ApiError;
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every route that is not public. */
    principal: User;
    /**
     * The caller's login session (its token pair and every pair refreshed from it), set with
     * `principal`: what the request rate is limited by (api.ts).
     */
    loginSession: string;
  }
}
