// structured-headers 2 publishes its types only through `exports`, which this project's `moduleResolution:
// node` does not read; these are the declarations the runner uses, as that package's dist/types.d.ts has them.
declare module 'structured-headers' {
  export class Token {
    constructor(value: string);
    toString(): string;
  }
  export type BareItem = number | string | Token | ArrayBuffer | Date | boolean;
  export type Parameters = Map<string, BareItem>;
  export type Item = [BareItem, Parameters];
  export type InnerList = [Item[], Parameters];
  export type List = Array<InnerList | Item>;
  /** RFC 9651 §4.2.1: parse a List; throws a ParseError on bad input. */
  export function parseList(input: string): List;
}
