import { Field, Int, ObjectType, type ClassType } from 'type-graphql';
import type { Connection } from '../paging.js';

@ObjectType({ description: 'Where a page of a connection stands. Connections page forward, with first and after.' })
export class PageInfo {
  @Field({ description: 'True when more items follow: ask again with after set to endCursor.' })
  hasNextPage!: boolean;

  @Field({ description: 'True when the page was asked for after a cursor, so items come before it.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: "The first edge's cursor; null for an empty page." })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: "The last edge's cursor; null for an empty page." })
  endCursor!: string | null;
}

/**
 * The Relay connection type of a list (`<name>Connection`, with its `<name>Edge`). Cursors are
 * opaque: base64 of the row's sort keys and id, so a page starts right after the last row seen
 * even when rows were added or removed meanwhile.
 */
export function connectionType(name: string, node: () => ClassType, what: string): ClassType<Connection<unknown>> {
  @ObjectType(`${name}Edge`, { description: `One ${what} in a connection, with its cursor.` })
  class Edge {
    @Field({ description: 'Opaque; pass it as after to continue with the items after this one.' })
    cursor!: string;

    @Field(node, { description: `The ${what}.` })
    node!: unknown;
  }

  @ObjectType(`${name}Connection`, {
    description: `A page of ${what}s in a stable order, for sync: ask for first items after a cursor.`,
  })
  class ConnectionType {
    @Field(() => Int, { description: `Every ${what} the list holds, across all pages.` })
    totalCount!: number;

    @Field(() => [Edge], { description: `The ${what}s of this page, in order.` })
    edges!: Edge[];

    @Field(() => PageInfo, { description: 'Whether more follow, and the cursor to continue from.' })
    pageInfo!: PageInfo;
  }
  return ConnectionType;
}
