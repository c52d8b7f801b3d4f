/**
 * The engine's public surface: what a program that embeds a Weir node (scripts, benchmarks, a test
 * harness) takes from `@weir/engine`. `main.ts` beside it is the command that runs one node; the
 * layers below (node/ at the top, core/ at the bottom) are described in docs/architecture.md.
 */
export { EmbeddedBroker, type EmbeddedBrokerOptions } from './broker/embedded-broker.ts';
export { loadSettings, SettingsError, settingDefinitions, type SettingKey, type Settings } from './config/settings.ts';
export { WeirNode, createNodeContext } from './node/node.ts';
export { createApi } from './node/api.ts';
export type { NodeContext } from './http/node-context.ts';
export { WeirError } from './core/errors.ts';
// For test harnesses (@weir/test-helpers): where the Kafka jars are, free ports, a fetch that drops aborted transactions.
export { brokerDir, ensureKafkaJars, kafkaLibDir, kafkaVersion } from './broker/kafka-jars.ts';
export { canConnect, freePort } from './broker/ports.ts';
export { dropAbortedOnFetch } from './kafka/aborted-transactions.ts';
