/**
 * The TypeScript type a JSON Schema describes, for the subset the contract's schemas use (object
 * with properties/required or additionalProperties, string, integer, number, boolean, null, array,
 * enum, const, and a list of types such as `['string', 'null']`). Every type of the contract is
 * derived from its schema through it, so a shape is never written twice.
 */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: readonly (infer T)[] }
      ? EachType<S, T>
      : S extends { readonly type: 'string' }
        ? string
        : S extends { readonly type: 'integer' | 'number' }
          ? number
          : S extends { readonly type: 'boolean' }
            ? boolean
            : S extends { readonly type: 'null' }
              ? null
              : S extends { readonly type: 'array'; readonly items: infer I }
                ? FromSchema<I>[]
                : S extends { readonly type: 'object'; readonly properties: infer P }
                  ? ObjectOf<P, RequiredOf<S>>
                  : S extends { readonly type: 'object'; readonly additionalProperties: infer A extends object }
                    ? Record<string, FromSchema<A>>
                    : S extends { readonly type: 'object' }
                      ? Record<string, unknown>
                      : unknown;

/** `type: ['string', 'null']`: the union of the schema read with each of its types. */
type EachType<S, T> = T extends unknown ? FromSchema<Omit<S, 'type'> & { readonly type: T }> : never;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectOf<P, R> = Flatten<
  { -readonly [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]>;
  }
>;

type Flatten<T> = { [K in keyof T]: T[K] };
