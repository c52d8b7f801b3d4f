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

/** The type named by a serde, serializer or deserializer class, or undefined for an unknown class. */
export function serdeTypeOf(className: string): SerdeType | undefined {
  const match =
    /^org\.apache\.kafka\.common\.serialization\.(?:Serdes\$(\w+)Serde|(\w+?)(?:Serializer|Deserializer))$/.exec(
      className,
    );
  const type = match?.[1] ?? match?.[2];
  return (serdeTypes as readonly string[]).includes(type ?? '') ? (type as SerdeType) : undefined;
}
