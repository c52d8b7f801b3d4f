import type { Settings } from '../config/settings.ts';
import type { ConfigStore } from './config-store.ts';
import { KafkaConfigStore } from './kafka-store.ts';
import { SqliteConfigStore } from './sqlite-store.ts';

/** The store `weir.config.store` names: `local` (SQLite under `weir.config.location`) or `kafka` (compacted topics). */
export async function openStore(settings: Settings, uuid: string, onError: (err: Error) => void): Promise<ConfigStore> {
  const kind = settings.get('weir.config.store');
  if (kind === 'kafka') return KafkaConfigStore.open(settings, `weir-config-${uuid}`, onError);
  return new SqliteConfigStore(settings.get('weir.config.location'), settings.get('weir.audit.retention-days'));
}
