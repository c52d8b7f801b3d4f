import { serdeTypes, type SerdeType } from '@weir/contract';

// The serde names are part of the API's contract (@weir/contract); the codecs are the engine's.
export {
  defaultDeserializer,
  defaultSerde,
  defaultSerializer,
  serdeConfiguration,
  serdePackage,
  serdeTypes,
  type SerdeType,
} from '@weir/contract';

/** The type named by a serde, serializer or deserializer class, or undefined for an unknown class. */
export function serdeTypeOf(className: string): SerdeType | undefined {
  const match =
    /^org\.apache\.kafka\.common\.serialization\.(?:Serdes\$(\w+)Serde|(\w+?)(?:Serializer|Deserializer))$/.exec(
      className,
    );
  const type = match?.[1] ?? match?.[2];
  return (serdeTypes as readonly string[]).includes(type ?? '') ? (type as SerdeType) : undefined;
}
