/** The shape of one inferred resource: spec/resources.ts fills it, spec/item-scope.ts and every user reads it. */
import type { IdForm } from './id-form';
import type { Schema } from './schema-shape';

export type ItemAction = 'read' | 'replace' | 'patch' | 'remove';
/** `search`: OpenAPI 3.2's QUERY on the collection, the stored items its body's fields match (issue 33). */
export type CollectionAction = 'create' | 'list' | 'update' | 'search';
export type Action = ItemAction | CollectionAction;

/** Where a create's answer carries the new id when not as the item's id field: a JSON pointer, or `Location`. */
export type CreatedIdAt = { pointer: string } | { header: 'location' };

/** A key made from another field of the item (an MD5 of the email): spec/derived-key.ts reads and makes it. */
export interface DerivedKey {
  /** The item's field the key is made from (`email_address`). */
  from: string;
  hash: 'md5';
  /** The field's value is lower-cased before hashing. */
  lowerCase: boolean;
}

/** One part of a key: the field (a JSON pointer) and the item path's parameter that names it. */
export interface KeyPart {
  pointer: string;
  param: string;
}

/** A field of the item (a JSON pointer) and the depth of the path parameter that names it. */
export interface PathField {
  pointer: string;
  depth: number;
}

export interface Resource {
  /** `x-mock.resource`, else the collection path's last segment (`books`, `special-events`). */
  name: string;
  collectionPath: string;
  itemPath?: string;
  itemParam?: string;
  /** The id property, or undefined when the document gives no way to address one item (or `key` does). */
  idField?: string;
  /**
   * The key as JSON pointers where it is not one top-level property: a nested field (`/metadata/name`), or one
   * field per parameter of an item path with two of its own (`/owner/login` and `/name` of `/repos/{owner}/{repo}`).
   * spec/resource-key.ts reads a record's key through it.
   */
  key?: KeyPart[];
  /**
   * The depths (segment indexes) of the collection path's parameters when records are kept per their values
   * (`/namespaces/{namespace}/gadgets` and its items): listed and found only under the values they were made
   * under, numbered per parent.
   */
  scope?: number[];
  /**
   * Fields of the item that name what the collection path names (`{namespace}` -> `/metadata/namespace`,
   * `{workspace_gid}` -> `/workspace/gid`), by the parameter's depth: a create sets them from the path.
   */
  pathFields?: PathField[];
  idType: 'integer' | 'string';
  /** The form of generated string ids (`sched_1`, `wh_` and 16 hex digits); undefined: UUIDs (issue 26.6). */
  idForm?: IdForm;
  /** `server`: always assigned; `client`: the client may send it (used when unique, assigned when absent). */
  idSource: 'server' | 'client';
  /** A server key the document says is made from another field (an MD5 of the email): spec/derived-key.ts. */
  derivedKey?: DerivedKey;
  /** Where a create answers the new id (spec/created-id.ts); undefined: the answered item's `idField`. */
  createdId?: CreatedIdAt;
  /** operationId of a `POST` on the item path the document makes the item's update (bound as patch or replace). */
  postUpdate?: string;
  /** Schema of one stored item, as the item read (or the create, or the list) answers it. */
  itemSchema: Schema;
  /** Required properties of the item the create does not take (`author`, `createdAt`): the server fills them. */
  serverFilled?: string[];
  /** readOnly properties of the item schema (the server's; a client that sends one gets 400). */
  readOnly: string[];
  /** operationId of each action the document has. */
  operations: Partial<Record<Action, string>>;
  /** Bodies wrapped in a named object (`{"article": {...}}`) in and out; the item schema is the inside. */
  envelope?: string;
  /** The patch takes a JSON Patch (RFC 6902), not a merge patch (RFC 7396). */
  jsonPatch?: boolean;
  /** A list answered as an object whose one array property holds the items (`{ data: [...] }`). */
  listEnvelope?: { property: string };
  /** Documented paging query parameters of the list. */
  paging?: { page?: string; limit?: string; offset?: string; cursor?: string };
  /**
   * A sub-collection under an item of another resource (`/articles/{slug}/comments`): each record belongs to the
   * parent item named by `param` in the path, is listed and addressed only under it, and a parent nobody created
   * is a 404. `optional`: the item names its parent in a field (`metadata.namespace`), so a parent nobody
   * created is a label, not a 404 (`x-mock.parent` says otherwise).
   */
  parent?: { name: string; param: string; optional?: boolean };
  /**
   * The replace takes only some of what the create requires (RealWorld's `UpdateArticle`, every field optional):
   * a `PUT` changes the properties it sends and keeps the others.
   */
  partialReplace?: boolean;
  /**
   * The create says it also updates (`Post a new silence or update an existing one`, `upsert`): a create naming
   * a stored item's key replaces that item instead of being refused as a duplicate.
   */
  upsert?: boolean;
}
