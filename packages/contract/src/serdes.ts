/**
 * The serde classes of the spec (Serde configuration): `org.apache.kafka.common.serialization`
 * names, as the original engine (Kafka Streams) reports them.
 */
export const serdePackage = 'org.apache.kafka.common.serialization';
export const serdeTypes = [
  'Float',
  'ByteArray',
  'Bytes',
  'ByteBuffer',
  'Double',
  'Integer',
  'Long',
  'String',
  'UUID',
] as const;
export type SerdeType = (typeof serdeTypes)[number];

export const serdeConfiguration = {
  serde: serdeTypes.map((t) => `${serdePackage}.Serdes$${t}Serde`),
  serializer: serdeTypes.map((t) => `${serdePackage}.${t}Serializer`),
  deserializer: serdeTypes.map((t) => `${serdePackage}.${t}Deserializer`),
} as const;

export const defaultSerde = `${serdePackage}.Serdes$StringSerde`;
export const defaultSerializer = `${serdePackage}.StringSerializer`;
export const defaultDeserializer = `${serdePackage}.StringDeserializer`;
