import type { SettingKey } from '../../src/config/settings.ts';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';

export const storeModes = ['local', 'kafka'] as const;
export type StoreMode = (typeof storeModes)[number];

/**
 * Settings of a test node in the given store mode. Kafka-mode nodes get their own topic prefix, so
 * each test sees only its own configuration topics; pass the same prefix to share them.
 */
export function storeSettings(mode: StoreMode, prefix = uniqueTopicPrefix(mode)): Partial<Record<SettingKey, string>> {
  return { 'weir.config.store': mode, 'weir.topic.prefix': prefix };
}
