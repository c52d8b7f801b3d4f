import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../http/node-context.ts';

/** A file of routes: registers its routes on the app with the node's context. */
export type RouteModule = (app: FastifyInstance, ctx: NodeContext) => void | Promise<void>;
